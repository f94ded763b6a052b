import Foundation
import RunWayCore
import RunWayHardware
import Testing

@testable import RunWayDaemon

/// A START pressed before the first fix is held; a STOP (the socket's) or a held END (the
/// button's) before that fix calls it off, says so, and no flight starts when the fix comes.
@Suite("A START held for the first fix can be called off")
struct HeldStartTests {
    static func control(_ clock: BoardClock, _ session: FlightEngine) -> SessionControl {
        SessionControl(
            engine: session, defaultMission: nil, logbookDirectory: nil, now: { await clock.gpsNow() },
            battery: { nil }, clock: clock)
    }

    static func reply(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The first fixes (three, so the board's time line stands): the held inputs they release.
    static func firstFix(_ clock: BoardClock) async -> [EngineInput] {
        var released: [EngineInput] = []
        let arrival = MonotonicInstant.now.seconds
        for i in 0..<3 {
            let fix = Fix(
                time: 1_790_000_000 + Double(i), coordinate: Coordinate(latitude: 37.5, longitude: 127),
                horizontalAccuracy: 4, speed: 3)
            _ = await clock.observe(
                fix, arrival: MonotonicInstant(seconds: arrival + Double(i)), inFlight: false)
            released += await clock.releaseHeld()
        }
        return released
    }

    @Test func aStopBeforeTheFirstFixCancelsTheHeldStart() async throws {
        let clock = BoardClock()
        let board = TestEngine()
        let session = board.engine
        let control = Self.control(clock, session)
        let held = try Self.reply(await control.answer(.start(mission: nil)))
        #expect(held["result"] as? String == "held until the first fix")
        let stopped = try Self.reply(await control.answer(.stop(sentAt: nil)))
        #expect(stopped["ok"] as? Bool == true)
        #expect(stopped["result"] as? String == "held start cancelled", "\(stopped)")
        #expect(stopped["phase"] as? String == "preflight")
        #expect(await Self.firstFix(clock).isEmpty, "the cancelled START came back at the first fix")
        #expect(await session.phase == .preflight)
        await board.close()
    }

    /// The time line stands and the start-up decision runs (it may replay a flight for
    /// seconds) before the held START is handed over: a STOP meanwhile still calls it off.
    @Test func aStopWhileTheStartUpDecisionRunsCancelsTheHeldStart() async throws {
        let clock = BoardClock()
        let board = TestEngine()
        let session = board.engine
        let control = Self.control(clock, session)
        _ = try Self.reply(await control.answer(.start(mission: nil)))
        let arrival = MonotonicInstant.now.seconds
        for i in 0..<3 {
            let fix = Fix(
                time: 1_790_000_000 + Double(i), coordinate: Coordinate(latitude: 37.5, longitude: 127))
            _ = await clock.observe(
                fix, arrival: MonotonicInstant(seconds: arrival + Double(i)), inFlight: false)
        }
        let stopped = try Self.reply(await control.answer(.stop(sentAt: nil)))
        #expect(stopped["result"] as? String == "held start cancelled", "\(stopped)")
        #expect(await clock.releaseHeld().isEmpty)
        await board.close()
    }

    @Test func aStopWithNothingHeldIsNotFlying() async throws {
        let clock = BoardClock()
        let board = TestEngine()
        let session = board.engine
        let stopped = try Self.reply(await Self.control(clock, session).answer(.stop(sentAt: nil)))
        #expect(stopped["result"] as? String == "not flying")
        await board.close()
    }

    /// What came before the START (a pressure reading) is kept; the START and what followed it
    /// (a pause meant for that run) go.
    @Test func onlyTheStartAndWhatFollowedItAreCalledOff() {
        var held = HeldInputs()
        held.hold(.pressure(pascals: 101_000), at: MonotonicInstant(seconds: 1))
        held.hold(.start(mission: nil, countdown: true), at: MonotonicInstant(seconds: 2))
        held.hold(.togglePause, at: MonotonicInstant(seconds: 3))
        held.hold(.pressure(pascals: 101_001), at: MonotonicInstant(seconds: 4))
        let cancelled = held.cancelStart()
        #expect(cancelled)
        #expect(held.held.map { $0.1 } == [.pressure(pascals: 101_000), .pressure(pascals: 101_001)])
        let again = held.cancelStart()
        #expect(!again, "nothing left to cancel")
    }

    @Test func aHeldEndButtonBeforeTheFirstFixCancelsTheHeldStart() async throws {
        let clock = BoardClock()
        let board = TestEngine()
        let session = board.engine
        let logged = Lines()
        let log = DaemonLog(toJournal: false) { logged.append($0) }
        let service = ButtonService(
            roles: [.start, .pause, .end], open: { throw NoChip() }, engine: session, clock: clock,
            defaultMission: nil, annunciator: Annunciator(driver: BuzzerDriver(), log: log), log: log)
        let now = MonotonicInstant.now.seconds
        await service.handle(.short(.start, at: now))
        await service.handle(.long(.end, at: now + 1))
        #expect(logged.all.contains { $0.contains("held START cancelled") }, "\(logged.all)")
        #expect(await Self.firstFix(clock).isEmpty)
        #expect(await session.phase == .preflight)
        await board.close()
    }
}
