import Foundation
import RunWayCore
import RunWayHardware
import Testing

/// The simulated chip shared between the test (which breaks it) and the reader thread.
final class LockedBus: I2CBus, @unchecked Sendable {
    // Every access to `chip` goes through `lock`.
    private let lock = NSLock()
    private let chip: SimulatedBMP280

    init(_ chip: SimulatedBMP280) { self.chip = chip }

    func with<T>(_ body: (SimulatedBMP280) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(chip)
    }

    func readRegisters(_ start: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return try chip.readRegisters(start, count: count)
    }

    func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        lock.lock()
        defer { lock.unlock() }
        try chip.writeRegister(register, value)
    }
}

@Suite("Barometer source: samples on its own thread, a failure said once, recovery")
struct BarometerSourceTests {
    @Test func aBarometerThatFailsMidRunIsReportedOnceAndRecovers() async throws {
        let bus = LockedBus(SimulatedBMP280(pascals: 100_000))
        let source = BarometerSource(
            interval: 0.01, clock: { MonotonicInstant.now },
            open: { BMP280(bus: bus, sleep: { _ in }) }
        ).start()
        var events: [BarometerEvent] = []
        var phase = 0
        for await event in source.events {
            events.append(event)
            let samples = events.filter { if case .sample = $0 { true } else { false } }.count
            if phase == 0, samples >= 5 {
                bus.with { $0.inject(.failTransfers(1_000_000)) }
                phase = 1
            } else if phase == 1, events.filter({ if case .lost = $0 { true } else { false } }).count == 1 {
                try await Task.sleep(for: .milliseconds(100))
                bus.with { $0.clearFaults() }
                phase = 2
            } else if phase == 2, events.contains(.recovered), samples >= 8 {
                source.stop()
            }
        }
        #expect(events.filter { if case .lost = $0 { true } else { false } }.count == 1)
        #expect(events.contains(.recovered))
        let pascals = events.compactMap { if case .sample(let p, _) = $0 { p } else { nil } }
        let stamps = events.compactMap { if case .sample(_, let at) = $0 { at } else { nil } }
        #expect(stamps == stamps.sorted())  // monotonic
        #expect(pascals.allSatisfy { abs($0 - 100_000) < 0.2 })
    }

    /// A board waiting on the start line reads rarely; START makes it read fast at once.
    @Test func theIntervalChangesWhileRunningAndTakesEffectAtOnce() async throws {
        let bus = LockedBus(SimulatedBMP280(pascals: 100_000))
        let source = BarometerSource(
            interval: 600, clock: { MonotonicInstant.now }, open: { BMP280(bus: bus, sleep: { _ in }) }
        ).start()
        var samples = 0
        for await event in source.events {
            guard case .sample = event else { continue }
            samples += 1
            if samples == 1 {
                // The first read comes at once; the next would be 10 minutes later.
                source.setInterval(0.01)
            } else if samples == 20 {
                source.stop()
            }
        }
        #expect(samples >= 20)  // more may have been queued before the stop
    }
}
