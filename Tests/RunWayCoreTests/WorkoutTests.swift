import Testing

@testable import RunWayCore

/// A workout's text (issue 27): every part read, every bad part refused with its field named.
@Suite("Workouts: the text a runner writes")
struct WorkoutParsingTests {
    @Test func intervalsExpandTheirRepeatsWithEachStepsTarget() throws {
        let workout = try Workout(parsing: "warmup 1.5km; 6x(work 400m @3:50±5, recover 90s); cooldown 10min")
        #expect(workout.steps.count == 14)
        #expect(workout.steps[0] == Workout.Step(kind: .warmup, length: .distance(1500)))
        #expect(
            workout.steps[1]
                == Workout.Step(
                    kind: .work, length: .distance(400),
                    pace: Mission.PaceBand(targetPace: 230, allowedDeviation: 5)))
        #expect(workout.steps[2] == Workout.Step(kind: .recover, length: .duration(90)))
        #expect(workout.steps[11] == workout.steps[1])
        #expect(workout.steps[13] == Workout.Step(kind: .cooldown, length: .duration(600)))
    }

    @Test func runnersShorthandReads() throws {
        let runWalk = try Workout(parsing: "8 X (Run 4min, Walk 1min)")
        #expect(runWalk.steps.count == 16)
        #expect(
            runWalk.steps.map(\.kind) == Array(repeating: [Workout.Kind.run, .walk], count: 8).flatMap { $0 })
        let bare = try Workout(parsing: "wu 2km, 6x400m @3:50, cd 1mi")
        #expect(bare.steps[1].kind == .work)
        #expect(bare.steps[1].pace?.allowedDeviation == Workout.defaultPaceDeviation)
        #expect(bare.steps[7].length == .distance(1609.344))
        let heart = try Workout(parsing: "work 20min @hr150-165; work 3km @4:30+-15 @z3")
        #expect(heart.steps[0].heartRate == Mission.HeartRateBand(low: 150, high: 165))
        #expect(heart.steps[1].pace?.allowedDeviation == 15)
        #expect(heart.steps[1].heartRate?.zone == 3)
    }

    /// The normalised text flies the same steps, zones included whatever the zones become.
    @Test func theSpecReadsBackToTheSameSteps() throws {
        for text in [
            "warmup 1.5km; 6x(work 400m @3:50±5, recover 90s); cooldown 10min",
            "8x(run 4min, walk 1min)", "work 20min @z2; work 3km @4:30+-15 @hr150-165",
            "work 1234m; walk 75s",
        ] {
            let workout = try Workout(parsing: text)
            let again = try Workout(
                parsing: workout.spec, zones: HeartRateZones(method: .maximum, maximum: 150, resting: 50))
            #expect(again.steps == workout.steps, "\(workout.spec)")
            #expect(again.spec == workout.spec)
        }
    }

    @Test(arguments: [
        ("", Workout.Invalid.empty),
        ("   ", .empty),
        ("10000x(work 400m)", .repeatCount(10000)),
        ("0x(work 400m)", .repeatCount(0)),
        ("99x(99x(work 400m))", .tooManySteps(9801)),
        ("50x(work 400m, recover 200m, walk 1min, run 1km, cd 1km)", .tooManySteps(250)),
        ("work -400m", .length(step: 1, "distance -400 m is outside 50 m–100 km")),
        ("wu 1km; work 0m", .length(step: 2, "distance 0 m is outside 50 m–100 km")),
        ("work 5s", .length(step: 1, "time 5 s is outside 10 s–24 h")),
        ("work 400yd", .unknownUnit("400yd")),
        ("sprint 400m", .unknownKind("sprint")),
        ("work 400m @hr160-150", .band(step: 1, .heartRate(low: 160, high: 150))),
        ("wu 1km, work 400m @1:00", .band(step: 2, .pace(60))),
        ("work 400m @4:00±500", .band(step: 1, .deviation(500))),
        ("work 400m @z7", .band(step: 1, .zone(7))),
        ("work 400m @fast", .syntax(offset: 11, expected: "a target: a pace M:SS, hrLOW-HIGH or zN")),
        ("6x(work 400m", .syntax(offset: 12, expected: "\")\"")),
        ("work 400m work 400m", .syntax(offset: 10, expected: "\";\" or \",\" between steps")),
    ])
    func badTextIsRefusedNamingWhatIsWrong(_ text: String, _ expected: Workout.Invalid) {
        #expect(throws: expected) { _ = try Workout(parsing: text) }
        #expect(!"\(expected)".isEmpty)
    }

    /// Nothing a hostile text can do: deep nesting, a huge text, huge numbers.
    @Test func hostileTextEndsInAnError() {
        let deep = String(repeating: "2x(", count: 2000) + "work 400m" + String(repeating: ")", count: 2000)
        #expect(throws: Workout.Invalid.self) { _ = try Workout(parsing: deep) }
        let long = Array(repeating: "work 400m", count: 1000).joined(separator: ";")
        #expect(throws: Workout.Invalid.self) { _ = try Workout(parsing: long) }
        #expect(throws: Workout.Invalid.self) { _ = try Workout(parsing: "work 1e300m") }
        #expect(throws: Workout.Invalid.self) { _ = try Workout(parsing: "99999999999999999999x(work 400m)") }
    }
}

/// A workout flown (issue 27): steps end at their lengths, each step's band is the alerts', the
/// laps add up to the flight.
@Suite("Workouts: steps, bands and laps in flight")
struct WorkoutFlightTests {
    /// A runner who runs each step at `speed(step)` (nil: after the last) as soon as it is
    /// said, for `seconds` or until `after` seconds past the workout's end.
    static func fly(
        _ text: String, seconds: Int = 7200, after: Int = 60, speed: (Workout.Step?) -> Double
    ) throws -> (Flight, [(Double, Callout)]) {
        var computer = FlightComputer()
        let workout = try Workout(parsing: text)
        var said: [(Double, Callout)] = []
        for case .callout(let c) in computer.handle(
            .start(at: Track.t0, mission: nil, countdown: false, workout: workout))
        {
            said.append((c.time - Track.t0, c.callout))
        }
        var east = 0.0
        var finishedAt: Int?
        for t in 1...seconds {
            let v = speed(computer.workout?.current)
            east += v
            for case .callout(let c) in computer.handle(.fix(Track.fix(Double(t), east: east, speed: v))) {
                said.append((c.time - Track.t0, c.callout))
            }
            if computer.workout?.isFinished == true, finishedAt == nil { finishedAt = t }
            if let finishedAt, t - finishedAt >= after { break }
        }
        let landed = computer.land()
        let flight = try #require(landed)
        return (flight, said)
    }

    /// A computer that took off at `Track.t0` flying the workout `text`.
    static func started(_ text: String) throws -> FlightComputer {
        var computer = FlightComputer()
        _ = computer.handle(
            .start(at: Track.t0, mission: nil, countdown: false, workout: try Workout(parsing: text)))
        return computer
    }

    static func onPace(_ step: Workout.Step?) -> Double {
        guard let step else { return 2.8 }
        if let pace = step.pace { return 1000 / pace.targetPace }
        return step.kind == .recover || step.kind == .walk ? 2.0 : 3.1
    }

    /// 6 × 400 m at 3:50 with 200 m recoveries, run on pace: fourteen steps said, fourteen laps
    /// and one after, each work lap about 400 m at 3:50, and no SINK RATE in a recovery.
    @Test func sixByFourHundredGivesALapPerStep() throws {
        let (flight, said) = try Self.fly(
            "wu 1km; 6x(work 400m @3:50±10, recover 200m); cd 1km", speed: Self.onPace)
        let steps = said.compactMap { if case .workoutStep(let i, let n, _) = $0.1 { (i, n) } else { nil } }
        #expect(steps.map(\.0) == Array(0..<14))
        #expect(steps.allSatisfy { $0.1 == 14 })
        #expect(said.contains { $0.1 == .workoutComplete })
        #expect(!said.contains { $0.1 == .sinkRate || $0.1 == .overspeed }, "\(said)")
        #expect(flight.laps.count == 15)
        #expect(flight.laps.prefix(14).allSatisfy { $0.completed })
        #expect(flight.laps[14].step == nil && !flight.laps[14].completed)
        for lap in flight.laps.prefix(14) where lap.step?.kind == .work {
            #expect(
                abs(lap.distance - 400) < 6,
                "\(lap.distance) \(lap.elapsed) \(lap.movingTime) \(flight.distanceMethod)")
            #expect(abs((lap.pace ?? 0) - 230) < 6, "\(lap)")
        }
        let total = flight.laps.reduce(0) { $0 + $1.distance }
        #expect(abs(total - flight.distance) < 1e-6)
        #expect(flight.workout?.steps.count == 14)
    }

    /// A step's band alerts in that step only: work run at recovery pace says SINK RATE; the
    /// same pace in the recovery step says nothing.
    @Test func eachStepsBandIsTheAlertsBand() throws {
        let (_, said) = try Self.fly("work 2km @4:00±10; recover 2km") { _ in 2.5 }
        let sinks = said.filter { $0.1 == .sinkRate }.map(\.0)
        #expect(!sinks.isEmpty)
        #expect(sinks.allSatisfy { $0 < 800 }, "\(sinks)")
    }

    /// A time step counts moving time: a pause does not bring its end closer.
    @Test func aTimeStepCountsMovingTime() throws {
        var computer = try Self.started("run 2min; walk 1min")
        computer.run(speed: 3, from: 1, to: 60)
        _ = computer.handle(.pause(at: Track.t0 + 60.5))
        for t in 61...180 { _ = computer.handle(.tick(Track.t0 + Double(t))) }
        _ = computer.handle(.resume(at: Track.t0 + 180.5))
        #expect(computer.workout?.index == 0)
        computer.run(speed: 3, from: 181, to: 260, startEast: 180)
        #expect(computer.workout?.index == 1)
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(abs(flight.laps[0].movingTime - 120) < 3, "\(flight.laps[0])")
    }

    /// Ended in the middle of a step: that lap is kept, not completed, and there is no lap after.
    @Test func endingMidStepKeepsThePartialLap() throws {
        let (flight, said) = try Self.fly("work 1km; recover 1km", seconds: 500) { _ in 3 }
        #expect(flight.laps.count == 2)
        #expect(flight.laps[0].completed && !flight.laps[1].completed)
        #expect(flight.laps[1].step?.kind == .recover)
        #expect(!said.contains { $0.1 == .workoutComplete })
    }

    /// The runner's lap in a workout ends the step there (not completed) and the next begins.
    @Test func aLapPressEndsTheStepThere() throws {
        var computer = try Self.started("wu 2km; work 400m")
        computer.run(speed: 3, from: 1, to: 200)
        let said = callouts(computer.handle(.lap(at: Track.t0 + 200.5)))
        #expect(said.contains { if case .workoutStep(1, 2, _) = $0 { true } else { false } }, "\(said)")
        computer.run(speed: 4, from: 201, to: 310, startEast: 600)
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(flight.laps.count == 3)
        #expect(!flight.laps[0].completed && abs(flight.laps[0].distance - 600) < 8, "\(flight.laps[0])")
        #expect(flight.laps[1].completed && abs(flight.laps[1].distance - 400) < 8)
        #expect(flight.laps[2].step == nil)
    }

    /// A free run's laps: each press ends one and says its time and pace; the last ends at END;
    /// the flight has laps but no workout. Paused, a press still laps; standing still, it does not
    /// fly nothing (no lap of no time).
    @Test func aFreeRunsLapsArePressed() throws {
        var computer = FlightComputer()
        computer.rotate()
        computer.run(speed: 3, from: 1, to: 100)
        let first = callouts(computer.handle(.lap(at: Track.t0 + 100)))
        #expect(first.contains { if case .lap(1, _, _) = $0 { true } else { false } }, "\(first)")
        #expect(callouts(computer.handle(.lap(at: Track.t0 + 100))).isEmpty)
        computer.run(speed: 3.5, from: 101, to: 200, startEast: 300)
        let second = callouts(computer.handle(.lap(at: Track.t0 + 200)))
        guard
            case .lap(2, let time, let pace)? = second.first(where: {
                if case .lap = $0 { true } else { false }
            })
        else {
            Issue.record("\(second)")
            return
        }
        #expect(abs(time - 100) < 2)
        #expect(abs((pace ?? 0) - 1000 / 3.5) < 10)
        computer.run(speed: 3, from: 201, to: 260, startEast: 650)
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(flight.workout == nil)
        #expect(flight.laps.count == 3)
        #expect(flight.laps.allSatisfy { $0.step == nil })
        #expect(flight.laps.map(\.index) == [0, 1, 2])
        #expect(abs(flight.laps.reduce(0) { $0 + $1.distance } - flight.distance) < 1e-6)
    }

    /// Before ROTATE (and after TOUCHDOWN) a lap is nothing.
    @Test func aLapOutsideAFlightIsNothing() {
        var computer = FlightComputer()
        #expect(callouts(computer.handle(.lap(at: Track.t0))).isEmpty)
        #expect(computer.phase == .preflight)
    }
}

/// `WorkoutTracker` on its own: progress in, steps and laps out (issue 27: each rule a pure
/// state machine).
@Suite("Workouts: the step tracker on its own")
struct WorkoutTrackerTests {
    static func at(_ elapsed: Double, _ distance: Double, moving: Double? = nil) -> Progress {
        Progress(elapsed: elapsed, distance: distance, movingTime: moving ?? elapsed, elevationGain: 0)
    }

    @Test func stepsEndAtTheirLengthsAndTheLapsAddUp() throws {
        var tracker = WorkoutTracker(workout: try Workout(parsing: "work 400m; rest 60s; work 400m"))
        #expect(tracker.update(Self.at(90, 399)).isEmpty)
        #expect(tracker.remaining(at: Self.at(90, 399)) == 1)
        let ended = tracker.update(Self.at(91, 402))
        guard case .stepEnded(let lap)? = ended.first else {
            Issue.record("\(ended)")
            return
        }
        #expect(lap.distance == 402 && lap.completed && lap.index == 0)
        #expect(ended.last == .stepBegan(1))
        // A time step counts moving time from its start: 60 s of it.
        #expect(tracker.update(Self.at(150, 500, moving: 150)).isEmpty)
        #expect(tracker.update(Self.at(151, 502, moving: 151)).last == .stepBegan(2))
        // Two steps' lengths in one update end both.
        let both = tracker.update(Self.at(300, 1000))
        #expect(both.last == .finished)
        let laps = tracker.finish(at: Self.at(320, 1080))
        #expect(laps.map(\.index) == [0, 1, 2, 3])
        #expect(laps.last?.step == nil && laps.last?.distance == 80)
        #expect(laps.reduce(0) { $0 + $1.distance } == 1080)
    }

    @Test func aLapPressCutsTheStepShortAndTwoPressesAtOnceAreOne() throws {
        var tracker = WorkoutTracker(workout: try Workout(parsing: "wu 1km; cd 1km"))
        let pressed = tracker.lap(at: Self.at(100, 300))
        #expect(pressed.last == .stepBegan(1))
        #expect(tracker.lap(at: Self.at(100, 300)).isEmpty)
        #expect(tracker.laps.first?.completed == false)
        // A free run's tracker has no steps: a press is a lap of its own.
        var free = WorkoutTracker(workout: Workout(steps: []))
        guard case .lapped(let lap)? = free.lap(at: Self.at(60, 200)).first else {
            Issue.record("no lap")
            return
        }
        #expect(lap.step == nil && lap.distance == 200)
    }
}
