import Foundation
import RunWayCore
import RunWayHardware
import Testing

/// A buzzer line that records its levels with the monotonic time they were set.
final class RecordingBuzzerLine: BuzzerLine, @unchecked Sendable {
    // @unchecked Sendable: `levels` is only touched while `lock` is held.
    private let lock = NSLock()
    private var levels: [(time: Double, on: Bool)] = []

    func set(_ on: Bool) { lock.withLock { levels.append((MonotonicInstant.now.seconds, on)) } }

    /// The level changes (repeats of the same level dropped).
    var changes: [(time: Double, on: Bool)] {
        lock.withLock {
            var result: [(time: Double, on: Bool)] = []
            for level in levels where result.last?.on != level.on { result.append(level) }
            return result
        }
    }

    var isOn: Bool { lock.withLock { levels.last?.on ?? false } }
}

final class Flag: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

@Suite("The buzzer driver: patterns on a line from a thread of its own, off on every exit")
struct BuzzerDriverTests {
    static func start(_ driver: BuzzerDriver, _ line: RecordingBuzzerLine) -> Thread {
        let thread = Thread { driver.run(line: line) }
        thread.start()
        return thread
    }

    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = MonotonicInstant.now.seconds + 60
        while !condition(), MonotonicInstant.now.seconds < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func aPatternSoundsForItsDurationsAndEndsOff() async throws {
        let driver = BuzzerDriver()
        let line = RecordingBuzzerLine()
        _ = Self.start(driver, line)
        defer { driver.stop() }
        // Waited for, not slept on: on a loaded machine the driver's thread started after the
        // pattern's 550 ms had passed (only its end was seen), and indexing the changes then
        // crashed the whole test process. The thread sets the line off first when it runs.
        try await Self.waitUntil { !line.changes.isEmpty }
        driver.play(BuzzerPattern([200, 150, 200]))
        try await Self.waitUntil { line.changes.count >= 5 }
        try await Task.sleep(for: .milliseconds(100))
        let changes = line.changes
        try #require(changes.map(\.on) == [false, true, false, true, false])
        // Durations as played (the line is set within a few ms of each change; CI may be slow).
        let on1 = changes[2].time - changes[1].time
        let off = changes[3].time - changes[2].time
        let on2 = changes[4].time - changes[3].time
        for (measured, expected) in [(on1, 0.2), (off, 0.15), (on2, 0.2)] {
            #expect(abs(measured - expected) < 0.08, "\(measured) s for \(expected) s")
        }
    }

    @Test func stoppingMidPatternSwitchesTheLineOff() async throws {
        let driver = BuzzerDriver()
        let line = RecordingBuzzerLine()
        let finished = Flag()
        let thread = Thread {
            driver.run(line: line)
            finished.set()
        }
        thread.start()
        driver.play(BuzzerPattern([600_000]))  // sounding until stopped, however late this test runs
        try await BuzzerDriverTests.waitUntil { line.isOn }
        #expect(line.isOn)
        driver.stop()
        try await BuzzerDriverTests.waitUntil { finished.isSet }
        #expect(finished.isSet)
        #expect(!line.isOn)
    }

    @Test func aStopBeforeTheThreadRunsIsKept() {
        let driver = BuzzerDriver()
        driver.stop()
        driver.play(BuzzerPattern([1_000]))
        let line = RecordingBuzzerLine()
        driver.run(line: line)  // returns at once
        #expect(!line.isOn)
    }

    @Test func playIsSafeFromManyThreadsAtOnce() async throws {
        let driver = BuzzerDriver()
        let line = RecordingBuzzerLine()
        _ = Self.start(driver, line)
        await withTaskGroup(of: Void.self) { group in
            for k in 0..<8 {
                group.addTask {
                    for _ in 0..<50 { driver.play(BuzzerPattern([1, 1]), urgent: k % 2 == 0) }
                }
            }
        }
        #expect(driver.patternsPlayed == 400)
        try await Self.waitUntil { !line.isOn && line.changes.count > 2 }
        driver.stop()
    }
}

@Suite("What the runner hears: callouts, too short, GPS ready, faults")
struct AnnunciationTests {
    static func state(_ phase: FlightPhase, _ signal: SignalQuality) -> EngineOutput {
        var pfd = PFD.idle(at: 0)
        pfd.phase = phase
        pfd.signal = signal
        return .state(pfd)
    }

    @Test func aTooShortLandingSoundsItsOwnPatternInsteadOfTouchdown() {
        func flight(_ metres: Double) -> Flight {
            Flight(
                mission: nil, startTime: 0, endTime: 600, distance: metres, elapsed: 600, movingTime: 600,
                splits: [], droppedTail: 0, samples: [], route: Route(points: []),
                simplifiedRoute: Route(points: []), alerts: [],
                averageHeartRate: nil, averageCadence: nil)
        }
        let (short, long) = (flight(40), flight(4_000))
        var annunciation = Annunciation()
        let touchdown = EngineOutput.callout(TimedCallout(.touchdown, at: 10))
        #expect(
            annunciation.sounds(for: [touchdown, .ended(.landed(short))]).map(\.pattern) == [.tooShort])
        #expect(
            annunciation.sounds(for: [touchdown, .ended(.landed(long))]).map(\.pattern)
                == [.pattern(for: .touchdown)])
    }

    @Test func gpsReadyBeepsOnceInPreflightAndAgainOnlyAfterTheSignalWasLost() {
        var annunciation = Annunciation()
        func names(_ outputs: [EngineOutput]) -> [String] { annunciation.sounds(for: outputs).map(\.name) }
        #expect(names([Self.state(.preflight, .noSignal)]) == [])
        #expect(names([Self.state(.preflight, .weak)]) == [])
        #expect(names([Self.state(.preflight, .good)]) == ["GPS ready"])
        #expect(names([Self.state(.preflight, .weak)]) == [])
        #expect(names([Self.state(.preflight, .strong)]) == [])  // wavering: no chirp
        #expect(names([Self.state(.preflight, .noSignal)]) == [])
        #expect(names([Self.state(.preflight, .good)]) == ["GPS ready"])
        #expect(names([Self.state(.cruise, .noSignal)]) == [])
        #expect(names([Self.state(.cruise, .good)]) == [])  // in flight SIGNAL LOST/RESUME speak
    }

    @Test func everySoundIsDistinct() {
        let callouts: [Callout] = [
            .countdown(3), .rotate, .split(order: 1, pace: 300), .sinkRate, .overspeed, .minimums,
            .heartRateHigh, .heartRateLow, .pause(.stopped), .resume, .signalLost, .touchdown, .error("x"),
        ]
        let patterns =
            callouts.map { BuzzerPattern.pattern(for: $0) }
            + BoardFault.allCases.map { BuzzerPattern.pattern(for: $0) }
            + [.gpsReady, .tooShort, .holdConfirmed]
        #expect(Set(patterns.map { $0.steps.map { Int($0 * 1000) } }).count == patterns.count)
        // Distinct as a runner hears them, not only in milliseconds: no two of the board's sounds
        // share a rhythm (SIGNAL LOST and MISSION COMPLETE were both three pips and a long tone,
        // GPS ready a split's two pips).
        let rhythms = BuzzerPattern.named.map { "\($0.pattern.rhythm) \($0.name)" }
        #expect(
            Set(BuzzerPattern.named.map(\.pattern.rhythm)).count == BuzzerPattern.named.count, "\(rhythms)")
        #expect(BuzzerPattern.named.count == 20 + 6 + BoardFault.allCases.count)
        // A fault is the error burst then its number of long beeps.
        let critical = BuzzerPattern.pattern(for: .batteryCritical).steps
        #expect(critical.filter { $0 == 0.4 }.count == BoardFault.batteryCritical.number)
        #expect(critical.count % 2 == 1)  // ends on a beep, then off
    }
}

@Suite("Battery alerts: low once, critical once, charging is never critical")
struct BatteryMonitorTests {
    @Test func lowIsSaidOnceUntilChargedBack() {
        var monitor = BatteryMonitor(lowPercent: 20, criticalPercent: 5)
        func observe(_ percent: Int?, _ state: String = "Discharging") -> BatteryMonitor.Alert? {
            monitor.observe(BatteryStatus(capacity: percent, state: state))
        }
        #expect(observe(50) == nil)
        #expect(observe(19) == .low(percent: 19))
        #expect(observe(18) == nil)
        #expect(observe(21) == nil)  // within the hysteresis
        #expect(observe(19) == nil)
        #expect(observe(26, "Charging") == nil)
        #expect(observe(19) == .low(percent: 19))
        #expect(observe(5) == .critical(percent: 5))
        #expect(observe(4) == nil)
        #expect(observe(nil) == nil)  // no gauge: nothing said
    }

    @Test func aChargingBatteryIsNotCritical() {
        var monitor = BatteryMonitor()
        #expect(monitor.observe(BatteryStatus(capacity: 3, state: "Charging")) == .low(percent: 3))
        #expect(monitor.observe(BatteryStatus(capacity: 3, state: "Discharging")) == .critical(percent: 3))
    }
}

@Suite("MonotonicInstant is CLOCK_MONOTONIC, the clock GPIO events are stamped with")
struct MonotonicInstantTests {
    @Test func itIsSecondsSinceBoot() {
        // Foundation's systemUptime reads CLOCK_MONOTONIC on Linux.
        let uptime = ProcessInfo.processInfo.systemUptime
        #expect(abs(MonotonicInstant.now.seconds - uptime) < 0.5)
    }
}
