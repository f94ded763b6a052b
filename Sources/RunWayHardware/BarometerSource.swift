import CGPS
import Foundation
import RunWayCore

/// What the barometer source reports.
public enum BarometerEvent: Sendable, Equatable {
    case sample(PressureSample)
    /// The barometer stopped giving readings: said once per loss, with the reason.
    case lost(reason: String)
    /// Readings are back.
    case recovered
}

/// Reads the BMP280 on its own thread every `interval` seconds and yields samples stamped by
/// `clock` (monotonic; the daemon maps it onto GPS time). When reads fail — after the driver's
/// own retries and re-initialisation — it says so once, keeps trying, and says when it is back;
/// the flight goes on without altitude meanwhile.
public final class BarometerSource: Sendable {
    public let events: AsyncStream<BarometerEvent>
    private let wake = WakeSignal()

    /// - Parameter open: makes the driver on the reader thread (the I2C handle never leaves it).
    public init(
        interval: Double = 0.5, clock: @escaping @Sendable () -> Double,
        open: @escaping @Sendable () throws -> BMP280
    ) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: BarometerEvent.self, bufferingPolicy: .bufferingNewest(256))
        events = stream
        let wake = self.wake
        continuation.onTermination = { _ in wake.signal() }
        let thread = Thread {
            defer { continuation.finish() }
            var driver: BMP280?
            var lost = false
            let waitMs = Int32(max(1, interval * 1000))
            repeat {
                do {
                    if driver == nil {
                        let opened = try open()
                        try opened.start()
                        driver = opened
                    }
                    let reading = try driver!.read()
                    if lost {
                        lost = false
                        continuation.yield(.recovered)
                    }
                    continuation.yield(.sample(PressureSample(time: clock(), pascals: reading.pascals)))
                } catch {
                    if !lost {
                        lost = true
                        continuation.yield(.lost(reason: "\(error)"))
                    }
                }
            } while rw_poll2(-1, wake.fd, waitMs) == 0
        }
        thread.name = "barometer"
        thread.start()
    }

    public func stop() { wake.signal() }

    deinit { wake.signal() }
}
