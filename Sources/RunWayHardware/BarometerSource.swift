import Foundation
import RunWayCore
import RunWaySystem
import Synchronization

/// Why the barometer gives no readings: the bus could not be opened (with its errno), or the
/// chip failed (a transfer's errno, a wrong chip id, a stuck conversion…).
public enum BarometerFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case bus(LinuxI2CBus.OpenError)
    case chip(BMP280Error)

    public var description: String {
        switch self {
        case .bus(let error): "\(error)"
        case .chip(let error): "\(error)"
        }
    }
}

/// What the barometer source reports.
public enum BarometerEvent: Sendable, Equatable {
    /// A reading, stamped with the monotonic clock: the engine's GPS time axis is a different
    /// type, reached only through the daemon's `TimeBase` (a monotonic stamp passed as GPS time
    /// would put every sample before ROTATE, and a live run would fly without altitude).
    case sample(pascals: Double, at: MonotonicInstant)
    /// The barometer stopped giving readings: said once per loss, with the reason.
    case lost(BarometerFailure)
    /// Readings are back.
    case recovered
}

/// Reads the BMP280 on its own thread every `interval` seconds (waits on the monotonic clock) and
/// yields samples stamped by `clock` (the monotonic clock; the daemon maps it onto GPS time). When reads fail — after the driver's
/// own retries and re-initialisation — it says so once, keeps trying, and says when it is back;
/// the flight goes on without altitude meanwhile.
public final class BarometerSource: Sendable {
    public let events: AsyncStream<BarometerEvent>
    private let continuation: AsyncStream<BarometerEvent>.Continuation
    private let wake = WakeSignal()
    private let interval: Mutex<Double>
    private let stopped = Mutex(false)
    private let clock: @Sendable () -> MonotonicInstant
    private let open: @Sendable () throws(BarometerFailure) -> BMP280

    /// Starts nothing: `run()` reads on the caller's thread (a service's own), `start()` on a new
    /// one.
    /// - Parameter open: makes the driver on the reader thread (the I2C handle never leaves it).
    public init(
        interval: Double = 0.5, clock: @escaping @Sendable () -> MonotonicInstant,
        open: @escaping @Sendable () throws(BarometerFailure) -> BMP280
    ) {
        (events, continuation) = AsyncStream.makeStream(
            of: BarometerEvent.self, bufferingPolicy: .bufferingNewest(256))
        self.interval = Mutex(interval)
        self.clock = clock
        self.open = open
        continuation.onTermination = { [weak self] _ in self?.stop() }
    }

    /// Reads until `stop()` (also when called before), then finishes `events`. Call once.
    public func run() {
        defer { continuation.finish() }
        if stopped.withLock({ $0 }) { return }
        var driver: BMP280?
        var lost = false
        var last = MonotonicInstant(seconds: -.infinity)
        repeat {
            // A wake-up that only changed the interval reads when the new one says.
            let due = last.seconds + interval.withLock { $0 }
            if MonotonicInstant.now.seconds < due { continue }
            last = .now
            do throws(BarometerFailure) {
                if driver == nil {
                    let opened = try open()
                    do throws(BMP280Error) { try opened.start() } catch { throw .chip(error) }
                    driver = opened
                }
                let reading: BarometerReading
                do throws(BMP280Error) { reading = try driver!.read() } catch { throw .chip(error) }
                if lost {
                    lost = false
                    continuation.yield(.recovered)
                }
                continuation.yield(.sample(pascals: reading.pascals, at: clock()))
            } catch {
                if !lost {
                    lost = true
                    continuation.yield(.lost(error))
                }
            }
        } while waitForNextRead(after: last)
    }

    /// Sleeps until the next read is due or the interval changes; false once stopped.
    private func waitForNextRead(after last: MonotonicInstant) -> Bool {
        let due = last.seconds + interval.withLock { $0 }
        let waitMs = Int32(max(1, ((due - MonotonicInstant.now.seconds) * 1000).rounded(.up)))
        guard Poll.readable(nil, wake.fd, timeout: waitMs) != .timedOut else { return true }
        wake.drain()
        return !stopped.withLock { $0 }
    }

    /// Reads every `seconds` from now on (from any thread): the board reads fast while a flight
    /// flies and slowly while it waits, so an idle board rarely wakes.
    public func setInterval(_ seconds: Double) {
        let changed = interval.withLock { current in
            defer { current = seconds }
            return current != seconds
        }
        if changed { wake.signal() }
    }

    /// Runs `run()` on a thread of its own, for a caller without a service group (a command,
    /// a test); returns self.
    @discardableResult
    public func start() -> BarometerSource {
        Thread.start(named: "barometer") { [self] in run() }
        return self
    }

    public func stop() {
        stopped.withLock { $0 = true }
        wake.signal()
    }

    deinit { wake.signal() }
}
