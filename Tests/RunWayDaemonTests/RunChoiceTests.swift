import Foundation
import RunWayControl
import RunWayCore
import RunWayHardware
import Testing

@testable import RunWayCLI
@testable import RunWayDaemon

/// Choosing the run at the buttons (issue 27): PAUSE pressed briefly in preflight steps through
/// a free run, the configured mission and the configured runs; START flies the one chosen, the
/// socket's START too, and status names it.
@Suite("Choosing the run at the buttons")
struct RunChoiceTests {
    static let tempo = Mission(pace: .init(targetPace: 270, allowedDeviation: 10), goal: .distance(6000))
    static let easy = Mission(pace: .init(targetPace: 360, allowedDeviation: 20), goal: .duration(2400))

    @Test func theListIsAFreeRunTheMissionThenTheRunsAndStartsOnTheMission() {
        var choice = RunChoice(
            mission: Self.easy, runs: [ConfiguredRun(name: "tempo", mission: Self.tempo)])
        #expect(choice.runs.map(\.name) == ["free run", "mission", "tempo"])
        #expect(choice.chosen.mission == Self.easy && choice.position == 2)
        #expect(choice.next().name == "tempo")
        #expect(choice.next().name == "free run" && choice.position == 1)
        // Without a mission: the free run first, as START flew before there was a choice.
        #expect(RunChoice(mission: nil).chosen == .freeRun)
    }

    @Test func theRunsAreReadFromTheConfiguration() throws {
        let config = try DaemonConfiguration.parse(
            Data(
                #"{"runs": [{"name": "tempo", "mission": {"pace": "4:30", "deviation": 10, "distance": 6000}}, {"name": "long easy"}]}"#
                    .utf8))
        #expect(config.runs.map(\.name) == ["tempo", "long easy"])
        #expect(config.runs[0].mission?.targetPace == 270 && config.runs[1].mission == nil)
    }

    @Test(arguments: [
        (#"{"runs": {"name": "x"}}"#, "runs: expected a list of runs"),
        (#"{"runs": [{"mission": null}]}"#, "runs.0: a run needs a name"),
        (#"{"runs": [{"name": "a"}, {"name": "a"}]}"#, #"runs.1.name: "a" names another run"#),
        (#"{"runs": [{"name": "free run"}]}"#, #"runs.0.name: "free run" names another run"#),
        (#"{"runs": [{"name": "x", "mission": {"pace": "1:00", "distance": 5000}}]}"#, "runs.0.mission.pace"),
        (#"{"runs": [{"name": "x", "colour": "red"}]}"#, "runs.0.colour: unknown key"),
    ])
    func aBadRunIsNamedByItsKey(_ json: String, _ wanted: String) {
        do {
            _ = try DaemonConfiguration.parse(Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect("\(error)".contains(wanted), "\(error)")
        }
    }

    @Test func pauseInPreflightChoosesAndStartFliesTheChoice() async throws {
        let clock = BoardClock()
        let board = TestEngine()
        let session = board.engine
        let logged = Lines()
        let log = DaemonLog(toJournal: false) { logged.append($0) }
        let chooser = RunChooser(
            RunChoice(mission: nil, runs: [ConfiguredRun(name: "tempo", mission: Self.tempo)]))
        let service = ButtonService(
            roles: [.start, .pause, .end], open: { throw NoChip() }, engine: session, clock: clock,
            defaultMission: nil, annunciator: Annunciator(driver: BuzzerDriver(), log: log), log: log,
            chooser: chooser)
        var control = HeldStartTests.control(clock, session)
        control.chooser = chooser
        for input in await HeldStartTests.firstFix(clock) { await session.handle(input) }
        for fix in 0..<3 {
            await session.handle(
                .fix(
                    Fix(
                        time: 1_790_000_000 + Double(fix),
                        coordinate: Coordinate(latitude: 37.5, longitude: 127),
                        horizontalAccuracy: 4, speed: 0)))
        }
        let now = MonotonicInstant.now.seconds
        #expect(await control.board().run == "free run")
        await service.handle(.short(.pause, at: now))
        #expect(chooser.chosen.name == "tempo")
        #expect(logged.all.contains { $0.contains("run chosen: tempo (2)") }, "\(logged.all)")
        #expect(await control.board().run == "tempo")
        #expect(await session.phase == .preflight)  // PAUSE paused nothing
        await service.handle(.short(.start, at: now + 0.5))
        #expect(await session.phase == .takeoff)
        // Well past the countdown however long the machine took to press START (its time is the
        // press's monotonic instant on the board's time line: a loaded machine once took over
        // 300 s to get here from the first fix, and a tick at +300 s fell inside the countdown).
        let pressed = try #require(await clock.gps(MonotonicInstant(seconds: now + 0.5)))
        let past = max(1_790_000_300, pressed + 60)
        await session.handle(.tick(past))
        #expect(await session.phase == .cruise)
        #expect(await session.computer.mission == Self.tempo)
        // The flight keeps the run's name (the logbook's run_name, the JSON's run).
        let ended = await session.handle(.end(at: past + 100, sentAt: nil))
        let names = ended.compactMap { output -> String?? in
            if case .ended(let result) = output { result.flight.map(\.runName) } else { nil }
        }
        #expect(names == [.some("tempo")], "\(names)")
        await board.close()
    }

    /// A run in the configuration may be a workout, given as its text; a bad one names its key.
    @Test func aRunMayBeAWorkout() throws {
        let config = try DaemonConfiguration.parse(
            Data(
                #"{"runs": [{"name": "6x400", "workout": "wu 1km; 6x(work 400m @3:50, recover 200m); cd 1km"}]}"#
                    .utf8))
        #expect(config.runs[0].workout?.steps.count == 14)
        #expect(config.runs[0].mission == nil)
        for (json, wanted) in [
            (
                #"{"runs": [{"name": "x", "workout": "work -400m"}]}"#,
                "runs.0.workout: step 1: distance -400 m"
            ),
            (
                #"{"runs": [{"name": "x", "workout": "work 400m", "mission": {"pace": "5:00", "distance": 5000}}]}"#,
                "runs.0: a run has a mission or a workout, not both"
            ),
            (#"{"runs": [{"name": "x", "workout": 400}]}"#, "runs.0.workout: expected a workout's text"),
        ] {
            #expect(throws: (any Error).self) { _ = try DaemonConfiguration.parse(Data(json.utf8)) }
            do {
                _ = try DaemonConfiguration.parse(Data(json.utf8))
            } catch {
                #expect("\(error)".contains(wanted), "\(error)")
            }
        }
    }

    /// The socket's START flies a workout by a configured run's name or by its text; text that
    /// is neither is refused with what is wrong, and nothing takes off.
    @Test func startFliesAWorkoutByNameOrText() async throws {
        let interval = try Workout(parsing: "wu 1km; 6x(work 400m @3:50, recover 200m); cd 1km")
        for (given, steps) in [("6x400", 14), ("8x(run 4min, walk 1min)", 16)] {
            let clock = BoardClock()
            let board = TestEngine()
            var control = HeldStartTests.control(clock, board.engine)
            control.chooser = RunChooser(
                RunChoice(mission: nil, runs: [ConfiguredRun(name: "6x400", mission: nil, workout: interval)])
            )
            for input in await HeldStartTests.firstFix(clock) { await board.engine.handle(input) }
            let reply = try HeldStartTests.reply(await control.answer(.start(mission: nil, workout: given)))
            #expect(reply["ok"] as? Bool == true, "\(reply)")
            await board.engine.handle(.tick(1_790_000_300))
            #expect(await board.engine.computer.workout?.workout.steps.count == steps)
            await board.close()
        }
        let clock = BoardClock()
        let board = TestEngine()
        let control = HeldStartTests.control(clock, board.engine)
        for input in await HeldStartTests.firstFix(clock) { await board.engine.handle(input) }
        let refused = try HeldStartTests.reply(await control.answer(.start(mission: nil, workout: "tempo")))
        #expect(refused["ok"] as? Bool == false)
        #expect((refused["error"] as? String ?? "").contains("\"tempo\" is not a step"), "\(refused)")
        #expect(await board.engine.phase == .preflight)
        await board.close()
    }

    /// The request line carries the workout as text; with a mission too it is refused.
    @Test func theRequestCarriesTheWorkoutsText() throws {
        let request = ControlRequest.start(mission: nil, workout: "8x(run 4min, walk 1min)")
        #expect(request.line == #"{"command":"start","workout":"8x(run 4min, walk 1min)"}"#)
        #expect(try ControlRequest.parse(Array(request.line.utf8)) == request)
        #expect(throws: ControlRequest.Refusal.self) {
            _ = try ControlRequest.parse(
                Array(
                    #"{"command":"start","workout":"work 400m","mission":{"pace":"5:00","distance":5000}}"#
                        .utf8))
        }
        #expect(throws: ControlRequest.Refusal.self) {
            _ = try ControlRequest.parse(Array(#"{"command":"start","workout":""}"#.utf8))
        }
    }

    /// Mid-workout, status says the step, its number and what is left of it (JSON and the
    /// status line); after the workout, and without one, the fields are null.
    @Test func statusSaysTheWorkoutsStep() throws {
        var computer = FlightComputer()
        _ = computer.handle(
            .start(
                at: 1_790_000_000, mission: nil, countdown: false,
                workout: try Workout(parsing: "wu 1km; work 2min @4:00")))
        let origin = LocalProjection(origin: Coordinate(latitude: 37.5, longitude: 127))
        for t in 1...100 {
            _ = computer.handle(
                .fix(
                    Fix(
                        time: 1_790_000_000 + Double(t),
                        coordinate: origin.coordinate(east: 3 * Double(t), north: 0),
                        horizontalAccuracy: 4, speed: 3, track: 90, altitude: nil, mode: 3)))
        }
        let status = ControlStatus(computer.pfd, board: BoardStatus())
        #expect(status.text(.step) == "warmup 1km")
        #expect(status.number(.stepNumber) == 1 && status.number(.stepCount) == 2)
        #expect(abs((status.number(.stepLeftMetres) ?? 0) - 700) < 10, "\(status.json)")
        #expect(status.number(.stepLeftSeconds) == nil)
        #expect(
            ControlCommands.line(status).contains("STEP 1/2 warmup 1km, 70"),
            "\(ControlCommands.line(status))")
        let free = ControlStatus(PFD.idle(at: 1), board: BoardStatus())
        #expect(free.text(.step) == nil && !ControlCommands.line(free).contains("STEP"))
    }
}
