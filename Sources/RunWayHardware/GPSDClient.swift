import CGPS
import Foundation
import RunWayCore

/// What the gpsd client reports.
public enum GPSEvent: Sendable, Equatable {
    /// A TPV with mode ≥ 2: one per epoch, the first with a position.
    case fix(Fix)
    /// A mode-1 TPV: no fix. It counts toward signal loss; `time` is nil when gpsd gave none.
    case noFix(time: Double?)
    case connected
    /// The connection failed or closed; the client tries again every `reconnectInterval`.
    case disconnected(reason: String)
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
/// an epoch arrive; the first with a position is the fix. Times that go backwards are dropped.
public struct EpochFilter: Sendable {
    private var lastTime: Double?

    public init() {}

    public mutating func admit(_ report: rw_gps_report) -> GPSEvent? {
        guard report.is_tpv != 0 else { return nil }
        let time: Double? = report.time.isFinite ? report.time : nil
        if report.mode < 2 {
            return .noFix(time: time)
        }
        guard let time, report.lat.isFinite, report.lon.isFinite else { return nil }
        if let lastTime, time <= lastTime { return nil }
        lastTime = time
        func value(_ v: Double) -> Double? { v.isFinite ? v : nil }
        let accuracy = Fix.horizontalAccuracy(
            eph: value(report.eph), epx: value(report.epx), epy: value(report.epy))
        return .fix(
            Fix(
                time: time, coordinate: Coordinate(latitude: report.lat, longitude: report.lon),
                horizontalAccuracy: accuracy, speed: value(report.speed), track: value(report.track),
                altitude: value(report.alt_msl), mode: Int(report.mode)))
    }
}

/// An eventfd that wakes the reader thread; closed when the last owner lets go.
final class WakeSignal: Sendable {
    let fd: Int32

    init() {
        fd = rw_eventfd_create()
    }

    func signal() { rw_eventfd_signal(fd) }

    deinit { rw_fd_close(fd) }
}

/// A gpsd client on libgps. One dedicated thread polls the gpsd socket and a wake eventfd,
/// drains every buffered line after each wake-up, and yields `GPSEvent`s; it never blocks the
/// cooperative pool. The libgps session lives and dies on that thread. When gpsd goes away (read
/// −1 / EOF) the client reconnects every `reconnectInterval` and re-sends WATCH; nothing here
/// ends a flight.
public final class GPSDClient: Sendable {
    public let events: AsyncStream<GPSEvent>
    public let endpoint: GPSDEndpoint
    private let wake = WakeSignal()

    /// - Parameter buffering: events kept for a slow consumer; the oldest are dropped beyond it
    ///   (a consumer that falls this far behind wants the present).
    public init(endpoint: GPSDEndpoint, reconnectInterval: Double = 1, buffering: Int = 1024) {
        self.endpoint = endpoint
        let (stream, continuation) = AsyncStream.makeStream(
            of: GPSEvent.self, bufferingPolicy: .bufferingNewest(buffering))
        events = stream
        let wake = self.wake
        continuation.onTermination = { _ in wake.signal() }
        let thread = Thread {
            Self.run(
                endpoint: endpoint, reconnectInterval: reconnectInterval, wake: wake,
                continuation: continuation)
        }
        thread.name = "gpsd \(endpoint)"
        thread.start()
    }

    /// Stops the reader thread and finishes `events`.
    public func stop() { wake.signal() }

    deinit { wake.signal() }

    private static func run(
        endpoint: GPSDEndpoint, reconnectInterval: Double, wake: WakeSignal,
        continuation: AsyncStream<GPSEvent>.Continuation
    ) {
        defer { continuation.finish() }
        let waitMs = Int32(max(1, reconnectInterval * 1000))
        var lastFailure: String?
        // Kept across reconnections: a restarted gpsd must not deliver an epoch twice.
        var filter = EpochFilter()
        while true {
            var error: Int32 = 0
            guard let session = rw_gps_open(endpoint.host, String(endpoint.port), &error) else {
                let reason = "cannot reach gpsd at \(endpoint): \(describe(error))"
                if reason != lastFailure {
                    continuation.yield(.disconnected(reason: reason))
                    lastFailure = reason
                }
                if rw_poll2(-1, wake.fd, waitMs) != 0 { return }
                continue
            }
            lastFailure = nil
            continuation.yield(.connected)
            let reason = read(session, filter: &filter, wake: wake, continuation: continuation)
            rw_gps_close(session)
            guard let reason else { return }  // woken: stop
            continuation.yield(.disconnected(reason: reason))
            if rw_poll2(-1, wake.fd, waitMs) != 0 { return }
        }
    }

    /// Reads until gpsd goes away (returns why) or the wake fd fires (returns nil).
    private static func read(
        _ session: UnsafeMutablePointer<gps_data_t>, filter: inout EpochFilter, wake: WakeSignal,
        continuation: AsyncStream<GPSEvent>.Continuation
    ) -> String? {
        let fd = rw_gps_fd(session)
        var report = rw_gps_report()
        while true {
            switch rw_poll2(fd, wake.fd, -1) {
            case 1:
                repeat {
                    if rw_gps_read(session, &report) < 0 { return "gpsd closed the connection" }
                    if let event = filter.admit(report) { continuation.yield(event) }
                } while rw_gps_waiting(session, 0) != 0
            case 2:
                return nil
            default:
                return "polling the gpsd socket failed: \(describe(errno))"
            }
        }
    }

    static func describe(_ code: Int32) -> String {
        code > 0 ? String(cString: strerror(code)) : "libgps error \(code)"
    }
}
