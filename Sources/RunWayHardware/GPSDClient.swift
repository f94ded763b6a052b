import CGPS
import Foundation
import RunWayCore
import RunWaySystem

/// What the gpsd client reports.
public enum GPSEvent: Sendable, Equatable {
    /// A TPV with mode ≥ 2: one per epoch, the first with a valid position; `arrivedAt` is when
    /// the client read it from gpsd (on its own thread, so a consumer that is slow to take it
    /// does not make it look late to the daemon's time line).
    case fix(Fix, arrivedAt: MonotonicInstant)
    /// A mode-1 TPV: no fix. It counts toward signal loss; `time` is nil when gpsd gave none.
    case noFix(time: Double?)
    /// gpsd greeted the client (its VERSION report): the peer is gpsd and reports will follow.
    case connected
    /// The connection failed or closed; the client tries again after `retryIn` seconds.
    case disconnected(GPSDError, retryIn: Double)
}

/// Where gpsd listens.
public struct GPSDEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String = "127.0.0.1", port: UInt16 = 2947) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT`, `HOST`, `:PORT` or `[::1]:PORT`.
    public init?(parsing text: String) {
        var host = text
        var port: UInt16 = 2947
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") {
                guard let p = UInt16(rest.dropFirst()) else { return nil }
                port = p
            } else if !rest.isEmpty {
                return nil
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            guard let p = UInt16(text[text.index(after: colon)...]) else { return nil }
            port = p
        }
        self.init(host: host.isEmpty ? "127.0.0.1" : host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Delivers one report per epoch: gpsd sends several TPVs with the same time as sentences of
/// an epoch arrive; the first with a position is the fix. A time up to `rewindWindow` seconds
/// behind the latest is a late report of an epoch already delivered, and is dropped. A time
/// further away, ahead or behind, is passed on and becomes the latest: it is another time line
/// (a glitch, or a receiver that corrected its clock), for the daemon's `FixTimeline` to judge
/// against the monotonic clock — this filter has no clock, so it must not let one misdated fix
/// shut out every correct one after it. Every report is checked by `GPSReport.checked()` first (the trace reader's check too), so a
/// report with an impossible value never reaches the engine nor takes a valid report's epoch.
public struct EpochFilter: Sendable {
    /// gpsd repeats an epoch's TPV as its sentences arrive and a restarted gpsd may deliver the
    /// last epoch again: the same time or a second behind. A small window also bounds what a
    /// glitch ahead can cost: the correct fixes of at most this many seconds after it.
    public static let rewindWindow = 3.0
    private var lastTime: Double?
    /// Reports dropped by the check, for a maintainer's diagnostics.
    public private(set) var rejected = 0

    public init() {}

    public mutating func admit(_ raw: rw_gps_report) -> GPSEvent? {
        guard raw.is_tpv != 0 else { return nil }
        func value(_ v: Double) -> Double? { v.isFinite ? v : nil }
        let report = GPSReport(
            time: value(raw.time), mode: Int(raw.mode), latitude: value(raw.lat), longitude: value(raw.lon),
            eph: value(raw.eph), epx: value(raw.epx), epy: value(raw.epy), speed: value(raw.speed),
            track: value(raw.track), altitude: value(raw.alt_msl))
        return admit(report)
    }

    public mutating func admit(_ report: GPSReport) -> GPSEvent? {
        switch report.checked() {
        case .rejected:
            rejected += 1
            return nil
        case .noFix(let time):
            return .noFix(time: time)
        case .fix(let fix, _):
            if let lastTime, fix.time <= lastTime, lastTime - fix.time < Self.rewindWindow { return nil }
            lastTime = fix.time
            return .fix(fix, arrivedAt: .now)
        }
    }
}

/// How the client retries: after the first failure it waits `initial` seconds, doubling after
/// each further failure up to `maximum`; a greeting from gpsd starts over. It never gives up:
/// the flight must get its GPS back whenever gpsd returns.
public struct ReconnectPolicy: Sendable, Equatable {
    public var initial: Double
    public var maximum: Double
    /// How long a newly accepted connection may take to send gpsd's VERSION greeting (gpsd
    /// sends it at once).
    public var greetingTimeout: Double

    public init(initial: Double = 1, maximum: Double = 8, greetingTimeout: Double = 3) {
        self.initial = initial
        self.maximum = max(initial, maximum)
        self.greetingTimeout = greetingTimeout
    }

    /// The wait after `failures` consecutive failures (1 → `initial`).
    public func delay(afterFailures failures: Int) -> Double {
        var delay = initial
        for _ in 1..<max(1, failures) where delay < maximum { delay *= 2 }
        return min(delay, maximum)
    }
}

/// A gpsd client on libgps. One dedicated thread polls the gpsd socket and a wake eventfd,
/// drains every buffered line after each wake-up, and yields `GPSEvent`s; it never blocks the
/// cooperative pool. The libgps session lives and dies on that thread. A peer that does not greet
/// like gpsd within `ReconnectPolicy.greetingTimeout`, a closed connection, a name that does not
/// resolve: each is reported once, then retried with back-off; nothing here ends a flight.
/// SIGPIPE is ignored process-wide (`ProcessSignals`), since libgps writes with plain `write`.
public final class GPSDClient: Sendable {
    public let events: AsyncStream<GPSEvent>
    public let endpoint: GPSDEndpoint
    private let policy: ReconnectPolicy
    private let continuation: AsyncStream<GPSEvent>.Continuation
    private let wake = WakeSignal()

    /// Starts nothing: `run()` reads on the caller's thread (a service's own), `start()` on a new
    /// one.
    /// - Parameter buffering: events kept for a slow consumer; the oldest are dropped beyond it
    ///   (a consumer that falls this far behind wants the present).
    public init(endpoint: GPSDEndpoint, policy: ReconnectPolicy = ReconnectPolicy(), buffering: Int = 1024) {
        ProcessSignals.ignoreBrokenPipe()
        self.endpoint = endpoint
        self.policy = policy
        (events, continuation) = AsyncStream.makeStream(
            of: GPSEvent.self, bufferingPolicy: .bufferingNewest(buffering))
        let wake = self.wake
        continuation.onTermination = { _ in wake.signal() }
    }

    /// Reads gpsd until `stop()` (also when called before), then finishes `events`. Call once.
    public func run() {
        Self.run(endpoint: endpoint, policy: policy, wake: wake, continuation: continuation)
    }

    /// Runs `run()` on a thread of its own, for a caller without a service group (a command,
    /// a test); returns self.
    @discardableResult
    public func start() -> GPSDClient {
        Thread.start(named: "gpsd \(endpoint)") { [self] in run() }
        return self
    }

    /// Stops the reader and finishes `events`.
    public func stop() { wake.signal() }

    deinit { wake.signal() }

    private static func run(
        endpoint: GPSDEndpoint, policy: ReconnectPolicy, wake: WakeSignal,
        continuation: AsyncStream<GPSEvent>.Continuation
    ) {
        defer { continuation.finish() }
        var failures = 0
        var lastFailure: GPSDError?
        // Kept across reconnections: a restarted gpsd must not deliver an epoch twice.
        var filter = EpochFilter()
        while true {
            var code: Int32 = 0
            let failure: GPSDError
            if let session = rw_gps_open(endpoint.host, String(endpoint.port), &code) {
                let outcome = read(
                    session, endpoint: endpoint, policy: policy, filter: &filter, wake: wake,
                    continuation: continuation)
                rw_gps_close(session)
                switch outcome {
                case .stopped: return
                case .failed(let error, let greeted):
                    if greeted {
                        failures = 0
                        lastFailure = nil
                    }
                    failure = error
                }
            } else {
                failure = GPSDError.opening(code, endpoint: endpoint)
            }
            failures += 1
            let delay = policy.delay(afterFailures: failures)
            if failure != lastFailure {
                continuation.yield(.disconnected(failure, retryIn: delay))
                lastFailure = failure
            }
            if Poll.readable(nil, wake.fd, timeout: Int32(max(1, delay * 1000))) != .timedOut { return }
        }
    }

    private enum ReadOutcome {
        case stopped
        case failed(GPSDError, greeted: Bool)
    }

    /// Reads until the connection fails (says why) or the wake fd fires.
    private static func read(
        _ session: UnsafeMutablePointer<gps_data_t>, endpoint: GPSDEndpoint, policy: ReconnectPolicy,
        filter: inout EpochFilter, wake: WakeSignal, continuation: AsyncStream<GPSEvent>.Continuation
    ) -> ReadOutcome {
        let fd = rw_gps_fd(session)
        var report = rw_gps_report()
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(policy.greetingTimeout * 1000))
        var greeted = false
        while true {
            var timeout: Int32 = -1
            if !greeted {
                let left = clock.now.duration(to: deadline)
                guard left > .zero else {
                    return .failed(.noGreeting(endpoint, seconds: policy.greetingTimeout), greeted: false)
                }
                timeout = Int32(
                    max(
                        1,
                        left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            }
            switch Poll.readable(fd, wake.fd, timeout: timeout) {
            case .timedOut:
                continue  // the greeting deadline is checked above
            case .first:
                repeat {
                    if rw_gps_read(session, &report) < 0 {
                        return .failed(.closed(endpoint), greeted: greeted)
                    }
                    if report.is_version != 0, !greeted {
                        greeted = true
                        continuation.yield(.connected)
                    }
                    guard greeted else { continue }
                    if let event = filter.admit(report) { continuation.yield(event) }
                } while rw_gps_waiting(session, 0) != 0
            case .second:
                return .stopped
            case .failed(let error):
                return .failed(
                    .system(operation: "polling the gpsd socket", errno: error.rawValue), greeted: greeted)
            }
        }
    }
}
