import Foundation
import RunWayCore
import RunWayHardware
import RunWayTestSupport
import Testing

@testable import RunWayDaemon

/// Lines of text collected from any thread.
final class Lines: @unchecked Sendable {
    // @unchecked Sendable: `lines` is only touched while `lock` is held.
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// Engine outputs collected from the session's thread.
final class Outputs: @unchecked Sendable {
    // @unchecked Sendable: `outputs` is only touched while `lock` is held.
    private let lock = NSLock()
    private var outputs: [EngineOutput] = []
    func append(_ more: [EngineOutput]) { lock.withLock { outputs += more } }
    var all: [EngineOutput] { lock.withLock { outputs } }
}

struct NoChip: Error, CustomStringConvertible {
    var description: String { "/dev/gpiochip9: no such GPIO chip" }
}

/// runwayd's board services in-process, on line-level stand-ins: the buttons through
/// `ManualGPIOLines` (real time, CLOCK_MONOTONIC stamps, as the kernel's), fixes through the
/// board's time base as `GPSService` feeds them.
@Suite("runwayd's board services: buttons, watchdog")
struct BoardServiceTests {
    /// Waits for `condition`, up to `seconds` (generous: on a loaded 2-core CI machine, other
    /// suites can hold the cooperative pool for seconds).
    static func wait(upTo seconds: Double = 60, _ condition: () async -> Bool) async throws {
        let deadline = MonotonicInstant.now.seconds + seconds
        while await !condition(), MonotonicInstant.now.seconds < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// A fix into the session as `GPSService` delivers it: judged by the board's clock first.
    static func feed(
        _ fix: Fix, arrivedAt arrival: MonotonicInstant, clock: BoardClock, engine session: FlightEngine
    )
        async
    {
        let judged = await clock.observe(fix, arrival: arrival, inFlight: await session.phase.isInFlight)
        for input in await clock.releaseHeld() { await session.handle(input) }
        for fix in judged.fixes { await session.handle(.fix(fix)) }
    }

    /// The GPS axis of `walkNorth`: 1e9 s ahead of the monotonic clock.
    static let walkerOffset = 1_000_000_000.0

    /// Fixes at 10 Hz on a GPS axis `walkerOffset` ahead of the monotonic clock, walking north
    /// at 3 m/s, until cancelled.
    static func walkNorth(clock: BoardClock, engine session: FlightEngine) -> Task<Void, Never> {
        Task {
            var latitude = 37.5
            while !Task.isCancelled {
                let now = MonotonicInstant.now
                latitude += 0.3 / 111_000
                let fix = Fix(
                    time: now.seconds + walkerOffset,
                    coordinate: Coordinate(latitude: latitude, longitude: 127),
                    horizontalAccuracy: 4, speed: 3)
                await feed(fix, arrivedAt: now, clock: clock, engine: session)
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    @Test func theButtonsStartPauseAndEndARunAtTheirOwnTimes() async throws {
        let lines = ManualGPIOLines(buttons: 3)
        let outputs = Outputs()
        let logged = Lines()
        let log = DaemonLog(toJournal: false) { logged.append($0) }
        let board = TestEngine(observers: [OutputTap { outputs.append($0) }])
        let session = board.engine
        let clock = BoardClock()
        let driver = BuzzerDriver()
        let service = ButtonService(
            roles: [.start, .pause, .end], open: { lines }, engine: session, clock: clock,
            defaultMission: nil,
            annunciator: Annunciator(driver: driver, log: log), log: log)
        let buttons = Task { try await service.run() }

        // The reader thread reads levels as they are when it looks: wait until it watches (a
        // pool busy with other tests can delay its start by seconds).
        try await Self.wait { logged.all.contains { $0.contains("buttons: watching") } }
        // START before the first fix: held, then back-filled with the press's own time.
        let pressed = MonotonicInstant.now
        lines.tap(0, holding: 0.5)
        try await Task.sleep(for: .milliseconds(800))
        #expect(await session.phase == .preflight)

        let offset = Self.walkerOffset
        let feeder = Self.walkNorth(clock: clock, engine: session)
        defer { feeder.cancel() }
        try await Self.wait { await session.phase == .cruise }
        #expect(await session.phase == .cruise)
        let began = outputs.all.compactMap { output -> Double? in
            if case .began(_, let pressedAt, _, _, _) = output { pressedAt } else { nil }
        }
        // The press's time (a short press acts on release: 0.5 s, then the 25 ms debounce), not
        // the first fix's. (Taps are long enough that a reader thread delayed on a loaded
        // machine still reads the level while it is held, as a runner's press would be.)
        #expect(began.count == 1)
        #expect(abs((began.first ?? 0) - (pressed.seconds + 0.525 + offset)) < 0.35, "\(began)")

        // PAUSE toggles.
        lines.tap(1, holding: 0.5)
        try await Self.wait { await session.pfd.pauseReason == .manual }
        #expect(await session.pfd.pauseReason == .manual)
        lines.tap(1, holding: 0.5)
        try await Self.wait { await session.pfd.pauseReason == nil }
        #expect(await session.pfd.pauseReason == nil)

        // A bump on END ends nothing (it is the lap); a 2 s hold lands the flight, with the
        // confirmation beep.
        lines.tap(2, holding: 0.8)
        try await Self.wait { logged.all.contains { $0.contains("END pressed briefly") } }
        #expect(await session.phase == .cruise)
        #expect(logged.all.contains { $0.contains("END pressed briefly: lap") }, "\(logged.all)")
        let beforeHold = driver.patternsPlayed
        lines.tap(2, holding: 2.5)
        try await Self.wait { await session.phase == .touchdown }
        #expect(await session.phase == .touchdown)
        #expect(driver.patternsPlayed == beforeHold + 1)  // the hold's confirmation
        #expect(outputs.all.contains { if case .ended(.landed) = $0 { true } else { false } })
        #expect(logged.all.contains { $0.contains("END pressed briefly") })
        #expect(logged.all.contains { $0.contains("END held: landed") })

        // Cancellation stops the reader thread and returns.
        buttons.cancel()
        try await buttons.value
        await board.close()
    }

    @Test func missingButtonLinesAreSaidAndTheServiceStaysUntilCancelled() async throws {
        let logged = Lines()
        let log = DaemonLog(toJournal: false) { logged.append($0) }
        let board = TestEngine()
        let session = board.engine
        let service = ButtonService(
            roles: [.start], open: { throw NoChip() },
            engine: session, clock: BoardClock(), defaultMission: nil,
            annunciator: Annunciator(driver: BuzzerDriver(), log: log), log: log)
        let task = Task { try await service.run() }
        try await Task.sleep(for: .milliseconds(200))
        #expect(logged.all.contains { $0.contains("buttons: /dev/gpiochip9: no such GPIO chip") })
        task.cancel()
        try await task.value
        await board.close()
    }

    /// WATCHDOG=1 only while the session's thread answers: a stall (a write that hangs) stops the
    /// pings, so systemd restarts the daemon; an idle board waiting for a fix is still fed. Judged
    /// by when each ping was sent against when the stall held the session's thread, so a test
    /// machine that delays this task cannot make it pass or fail.
    @Test func theWatchdogIsNotFedWhileTheEngineStalls() async throws {
        let board = TestEngine()
        let session = board.engine
        let sent = Stamped()
        let notifier = Notifier(
            engine: session, log: DaemonLog(toJournal: false) { _ in }, readyWhen: { true },
            watchdogInterval: .milliseconds(100), notify: { sent.append($0) })
        let task = Task { try await notifier.run() }
        func pings(after time: Double = 0) -> Int {
            sent.all.filter { $0.text == "WATCHDOG=1" && $0.time > time }.count
        }
        try await Self.wait { pings() >= 5 }
        #expect(sent.all.first?.text == "READY=1")
        #expect(pings() >= 5, "idle, no input at all, and still fed")
        let stall = Task { await session.stall(seconds: 2) }
        let (began, ended) = await stall.value
        // A probe answered just before the stall may be reported one interval later.
        let during = sent.all.filter { $0.text == "WATCHDOG=1" && $0.time > began + 0.25 && $0.time < ended }
        #expect(during.isEmpty, "fed during a stall: \(during.map { $0.time - began })")
        try await Self.wait { pings(after: ended) >= 3 }
        #expect(pings(after: ended) >= 3, "fed again after the stall")
        task.cancel()
        _ = try? await task.value
        await board.close()
    }
}

/// Fault 1 (issue 27): gpsd that stays down is one report from the client (it tells a cause
/// once), and the fault sounded only when a later report came, so it never did.
@Suite("runwayd's gpsd service: fault 1")
struct GPSDFaultTests {
    @Test func gpsdThatStaysUnreachableSoundsFaultOneOnceAfterItsTime() async throws {
        let logged = Lines()
        let log = DaemonLog(toJournal: false) { logged.append($0) }
        let board = TestEngine()
        // Nothing listens on a free port: every attempt is refused at once, the same cause.
        let service = GPSService(
            endpoint: GPSDEndpoint(host: "127.0.0.1", port: try GPSFake.freePort()), engine: board.engine,
            clock: BoardClock(), annunciator: Annunciator(driver: BuzzerDriver(), log: log), log: log,
            unreachableAfter: 1.5)
        let began = MonotonicInstant.now.seconds
        let task = Task { try await service.run() }
        func faults() -> [String] { logged.all.filter { $0.contains("gpsd unreachable:") } }
        try await BoardServiceTests.wait(upTo: 30) { !faults().isEmpty }
        let heard = MonotonicInstant.now.seconds - began
        #expect(faults().count == 1, "\(logged.all)")
        #expect(heard >= 1.5, "sounded \(heard) s into the outage")
        #expect(faults().first?.contains("is gpsd running?") == true)
        // Once per occurrence: the client's retries (1, 2, 4 s) do not sound it again.
        try await Task.sleep(for: .seconds(4))
        #expect(faults().count == 1, "\(faults())")
        task.cancel()
        try await task.value
        await board.close()
    }
}

@Suite("The sleeper: periodic services wake only when due")
struct SleeperTests {
    @Test func sleepsAreKeptInOrderAndCancellationEndsOneAtOnce() async throws {
        let began = MonotonicInstant.now.seconds
        async let short: Void = RunWayDaemon.Sleeper.shared.sleep(for: 0.2)
        async let longer: Void = RunWayDaemon.Sleeper.shared.sleep(for: 0.4)
        try await short
        let shortEnded = MonotonicInstant.now.seconds - began
        try await longer
        let longerEnded = MonotonicInstant.now.seconds - began
        #expect(shortEnded >= 0.2 && longerEnded >= 0.4 && shortEnded < longerEnded)

        let sleeping = Task { try await RunWayDaemon.Sleeper.shared.sleep(for: 3_600) }
        try await Task.sleep(for: .milliseconds(50))
        let cancelledAt = MonotonicInstant.now.seconds
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
        #expect(MonotonicInstant.now.seconds - cancelledAt < 5)

        // A task cancelled before it sleeps does not sleep.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await RunWayDaemon.Sleeper.shared.sleep(for: 3_600)
        }
        await #expect(throws: CancellationError.self) { try await early.value }
    }
}

@Suite("STATUS= follows the flight, sent only when its words change")
struct StatusReporterTests {
    @Test func statusLinesAreSentOnChangeOnly() async {
        let reporter = StatusReporter()
        func state(_ phase: FlightPhase, _ signal: SignalQuality, _ metres: Double = 0) -> [EngineOutput] {
            var pfd = PFD.idle(at: 0)
            pfd.phase = phase
            pfd.signal = signal
            pfd.distance = metres
            return [.state(pfd)]
        }
        var sent: [String] = []
        var updates = reporter.updates.makeAsyncIterator()
        for (outputs, changes) in [
            (state(.preflight, .noSignal), true), (state(.preflight, .noSignal), false),
            (state(.preflight, .strong), true), (state(.cruise, .strong, 3_210), true),
            (state(.cruise, .strong, 3_240), false),  // still 3.2 km
            (state(.cruise, .strong, 3_260), true),
        ] {
            tell(reporter, outputs)
            if changes, let words = await updates.next() { sent.append(words) }
        }
        reporter.finish()
        #expect(await updates.next() == nil)  // nothing else was pending
        #expect(sent == ["waiting for GPS", "ready: GPS STRONG", "cruise 3.2 km", "cruise 3.3 km"])
    }
}

@Suite("The barometer's pace follows the flight")
struct BarometerPaceTests {
    @Test func fastFromTakeoffToTouchdownSlowOtherwise() {
        let pace = BarometerPace()
        func state(_ phase: FlightPhase) -> [EngineOutput] {
            var pfd = PFD.idle(at: 0)
            pfd.phase = phase
            return [.callout(TimedCallout(.rotate, at: 0)), .state(pfd)]
        }
        #expect(pace.interval == 10)
        tell(pace, state(.takeoff))
        #expect(pace.interval == 0.5)
        tell(pace, state(.cruise))
        tell(pace, [])  // outputs without a state change nothing
        #expect(pace.interval == 0.5)
        tell(pace, state(.touchdown))
        #expect(pace.interval == 10)
    }
}

/// Notifications with the monotonic time they were sent.
final class Stamped: @unchecked Sendable {
    // @unchecked Sendable: `items` is only touched while `lock` is held.
    private let lock = NSLock()
    private var items: [(text: String, time: Double)] = []
    func append(_ text: String) { lock.withLock { items.append((text, MonotonicInstant.now.seconds)) } }
    var all: [(text: String, time: Double)] { lock.withLock { items } }
}
