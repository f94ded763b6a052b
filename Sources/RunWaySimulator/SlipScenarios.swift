import RunWayCore

/// The runner's slips of issue 27, one scenario each, for `runway-bench slips` and the tests: a
/// PAUSE bumped mid-run, a car and a bus ride, a forgotten stop, and a sprint finish that must
/// count. 3 m/s on the park loop unless it says otherwise; the bench varies `seed`.
extension Scenario {
    /// PAUSE bumped at 2 km of 5 km; the runner runs on without noticing.
    public static var pauseBump: Scenario {
        var scenario = steady("PAUSE bumped at 2 km", speed: 3, distance: 5000, seed: 201)
        scenario.presses = [Press(at: steadyElapsed(at: 2000, speed: 3), .pause)]
        return scenario
    }

    /// Run 3 km, drive 8 km at 13 m/s (47 km/h) with two red lights, park for a minute, run 2 km.
    public static var runDrivePark: Scenario {
        var scenario = steady("run, drive, park, run", speed: 3, distance: 13_000, seed: 202)
        scenario.rides = [Ride(from: 3000, metres: 8000, speed: 13)]
        scenario.stops = [
            Stop(at: 5500, seconds: 40), Stop(at: 8200, seconds: 25), Stop(at: 11_000, seconds: 60),
        ]
        return scenario
    }

    /// Run 2 km, a bus for 4 km at 10 m/s (36 km/h) with three stops, run 2 km.
    public static var busRide: Scenario {
        var scenario = steady("bus at 36 km/h", speed: 3, distance: 8000, seed: 203)
        scenario.rides = [Ride(from: 2000, metres: 4000, speed: 10)]
        scenario.stops = [
            Stop(at: 3000, seconds: 20), Stop(at: 4300, seconds: 30), Stop(at: 5400, seconds: 15),
            Stop(at: 6000, seconds: 45),
        ]
        return scenario
    }

    /// 5 km, then standing at the finish for 40 minutes before END (the runner went home).
    public static var forgottenStop: Scenario {
        var scenario = steady("forgotten stop, 40 min", speed: 3, distance: 5000, seed: 204)
        scenario.finishWait = 2400
        return scenario
    }

    /// 5 km at 3.3 m/s, the last 400 m a sprint at 2:50 /km (5.9 m/s): all of it running.
    public static var sprintFinish: Scenario {
        var scenario = steady("sprint finish at 2:50 /km", speed: 3.3, distance: 5000, seed: 205)
        scenario.legs = [SpeedLeg(from: 0, speed: 3.3), SpeedLeg(from: 4600, speed: 1000 / 170)]
        return scenario
    }

    /// A track session: 1 km warm-up at 5:30 /km, six times 400 m at 3:50 /km with 200 m
    /// recoveries jogged at 8:20 /km, 1 km cool-down at 6:00 /km and on to 5.7 km, flown as the
    /// workout it is. The runner goes at the track's marks (the truth's distance) and holds the
    /// pace 50 m past each 400 m's line, waiting for the board's beep: the board's step ends at
    /// its own distance, which by 3 km is 10–20 m off the track's (its 0.3–0.6 % live error), and
    /// each step starts at the fix that ended the one before, up to a second past its line: by
    /// the sixth 400 m, 35 m past the track's on one seed in twenty, where a hold of 25 m had the
    /// runner easing off inside the board's step and SINK RATE said.
    public static var sixByFourHundred: Scenario {
        var scenario = steady("6 × 400 m workout", speed: 1000 / 330, distance: 5700, seed: 206)
        var legs = [SpeedLeg(from: 0, speed: 1000 / 330)]
        for repeat_ in 0..<6 {
            let start = 1000 + 600 * Double(repeat_)
            legs.append(SpeedLeg(from: start, speed: 400 / 92))
            legs.append(SpeedLeg(from: start + 450, speed: 1000 / 500))
        }
        legs.append(SpeedLeg(from: 4600, speed: 1000 / 360))
        scenario.legs = legs
        scenario.workout = try? Workout(parsing: "wu 1km; 6x(work 400m @3:50±10, recover 200m); cd 1km")
        return scenario
    }

    /// Every slip scenario, in the bench's order.
    public static var slipSuite: [Scenario] {
        [pauseBump, runDrivePark, busRide, forgottenStop, sprintFinish]
    }
}
