import RunWayCore
import RunWaySystem

/// A scenario flown through the engine, with what the runner heard and saw.
public struct SimulatedFlight: Sendable {
    public var scenario: Scenario
    public var truth: GroundTruth
    public var result: EndResult
    public var callouts: [TimedCallout]
    /// The PFD after each fix during the first `truth.speedLog` span (for pace settling).
    public var earlyReadouts: [PFD]
    /// Engine distance at each fix that moved it: (elapsed, metres).
    public var distanceLog: [(elapsed: Double, distance: Double)]

    /// The flight as the live engine landed it: what the runner heard during the run, and what
    /// the logbook stores today.
    public var flight: Flight? { result.flight }
    /// The same flight after the touchdown smoother (`FlightSmoothing`) over the inputs it flew:
    /// what issue 26 will make the saved flight; measured by `runway-bench accuracy` and
    /// `conditions`, not yet stored by runwayd.
    public var savedFlight: Flight?
    /// Every input the engine flew while flying: the raw log a recorder would have kept.
    public var inputs: [EngineInput] = []

    /// Flies `scenario` through the `FlightEngine`, on this thread; `observe` sees every output as
    /// it happens.
    public static func fly(
        _ scenario: Scenario, configuration: EngineConfiguration = EngineConfiguration(),
        observe: (EngineOutput) -> Void = { _ in }
    ) -> SimulatedFlight {
        let engine = FlightEngine(
            computer: FlightComputer(configuration: configuration), on: CallerThreadExecutor())
        // `assumeIsolated` runs its body at once on this thread, which is the engine's
        // (`CallerThreadExecutor` checks it), so `observe` is called only here, synchronously.
        nonisolated(unsafe) let observe = observe
        return engine.assumeIsolated { engine in
            var runner = ScenarioRunner(scenario)
            var callouts: [TimedCallout] = []
            var early: [PFD] = []
            var distances: [(elapsed: Double, distance: Double)] = []
            var result = EndResult.notFlying
            var flown: [EngineInput] = []
            func take(_ outputs: [EngineOutput]) {
                for output in outputs {
                    observe(output)
                    if case .callout(let callout) = output { callouts.append(callout) }
                    // A forgotten stop lands the flight by itself; the scenario's END finds none.
                    if case .ended(let ended) = output, ended.flight != nil { result = ended }
                }
            }
            while let event = runner.next() {
                switch event {
                case .input(let input):
                    if engine.isFlying { flown.append(input) }
                    take(engine.handle(input))
                    if case .fix = input, engine.isFlying,
                        input.time - scenario.rotateTime <= runner.speedLogSeconds
                    {
                        early.append(engine.pfd)
                    }
                    // Distance moves only at counted fixes; between them the engine interpolates.
                    if case .fix = input, engine.isFlying, engine.pfd.distance != distances.last?.distance {
                        distances.append((input.time - scenario.rotateTime, engine.pfd.distance))
                    }
                case .end(let sentAt):
                    let (ended, outputs) = engine.end(sentAt: sentAt)
                    take(outputs)
                    if result.flight == nil || ended.flight != nil { result = ended }
                }
            }
            let saved = result.flight.map {
                FlightSmoothing.smoothed($0, inputs: flown, configuration: configuration)
            }
            return SimulatedFlight(
                scenario: scenario, truth: runner.truth, result: result, callouts: callouts,
                earlyReadouts: early, distanceLog: distances, savedFlight: saved, inputs: flown)
        }
    }
}

/// How close the engine came to the ground truth on one scenario.
public struct AccuracyScore: Sendable {
    public var scenario: String
    public var distanceErrorPercent: Double
    /// Seconds after ROTATE from which the PFD pace stays within 5 % of the true pace.
    public var paceSettleSeconds: Double?
    /// Worst |engine − truth| split boundary time, against the true kilometre. This includes
    /// the engine's accumulated distance error (±5 m is ±1.7 s at 3 m/s).
    public var worstSplitTimeError: Double?
    /// Worst split boundary timing error with the engine's accumulated distance error taken out:
    /// against the moment the runner truly reached the point the engine called the boundary
    /// (engine distance error measured at the straddling fixes). This is what interpolating the
    /// boundary between fixes is for; taking the later fix's time costs up to a fix interval.
    public var worstSplitTimingError: Double?
    /// |engine − truth| moving time divided by the number of stops (nil without stops).
    public var movingTimeErrorPerStop: Double?
    public var movingTimeError: Double
    public var elevationGain: Double
    public var trueElevationGain: Double
    public var autoPauses: Int

    public init(_ run: SimulatedFlight) {
        let flight = run.flight
        let truth = run.truth
        scenario = run.scenario.name
        let distance = flight?.distance ?? 0
        distanceErrorPercent = truth.distance > 0 ? (distance - truth.distance) / truth.distance * 100 : 0
        movingTimeError = (flight?.movingTime ?? 0) - truth.movingTime
        movingTimeErrorPerStop = truth.stopCount > 0 ? abs(movingTimeError) / Double(truth.stopCount) : nil
        elevationGain = flight?.elevationGain ?? 0
        trueElevationGain = truth.elevationGain
        autoPauses = run.callouts.filter { $0.callout == .pause(.stopped) }.count
        let engineTimes = (flight?.splits ?? []).filter { $0.distance == 1000 }.map(\.elapsedEnd)
        let pairs = zip(engineTimes, truth.kilometreTimes)
        worstSplitTimeError = pairs.map { abs($0 - $1) }.max()
        worstSplitTimingError = engineTimes.enumerated().compactMap { index, time in
            Self.timingError(run, boundary: Double(index + 1) * 1000, at: time)
        }.max()
        paceSettleSeconds = Self.settleTime(run)
    }

    static func timingError(_ run: SimulatedFlight, boundary: Double, at time: Double) -> Double? {
        // A boundary where the runner came to a stop (the finish) has no single moment of passing.
        guard boundary < run.truth.distance - 10 else { return nil }
        let log = run.distanceLog
        guard let after = log.firstIndex(where: { $0.elapsed >= time }), after > 0 else { return nil }
        // The engine's distance is a step function that moves at counted fixes: its error is
        // measured at the fixes on either side and interpolated to the boundary.
        let before = log[after - 1]
        let next = log[after]
        guard let t0 = run.truth.distance(atElapsed: before.elapsed),
            let t1 = run.truth.distance(atElapsed: next.elapsed)
        else { return nil }
        let f = next.elapsed > before.elapsed ? (time - before.elapsed) / (next.elapsed - before.elapsed) : 0
        let error = (before.distance - t0) + ((next.distance - t1) - (before.distance - t0)) * f
        guard let trueTime = run.truth.elapsed(atDistance: boundary - error) else { return nil }
        return abs(time - trueTime)
    }

    /// The earliest elapsed time after which every PFD pace, over the opening stretch (until the
    /// true speed first falls 5 % below its best so far: a slower leg or a stop), is within 5 % of
    /// the true pace.
    static func settleTime(_ run: SimulatedFlight) -> Double? {
        var settled: Double?
        var best = 0.0
        for pfd in run.earlyReadouts {
            let elapsed = pfd.elapsed
            guard let trueSpeed = run.truth.speed(atElapsed: elapsed) else { break }
            best = max(best, trueSpeed)
            if best >= 1, trueSpeed < best * 0.95 { break }
            if trueSpeed < 1 { continue }
            let truePace = 1000 / trueSpeed
            if let pace = pfd.pace, abs(pace - truePace) / truePace <= 0.05 {
                settled = settled ?? elapsed
            } else {
                settled = nil
            }
        }
        return settled
    }

    public var elevationGainError: Double { elevationGain - trueElevationGain }
    public var elevationGainErrorPercent: Double? {
        trueElevationGain > 1 ? elevationGainError / trueElevationGain * 100 : nil
    }
}
