/// The saved flight from the whole raw log (issue 26): the live engine's flight is causal (each
/// figure from what came before it), which is right for the PFD and the callouts but leaves the
/// saved distance, splits and route with the errors only hindsight removes. At touchdown (and on
/// `reprocess`, recovery and salvage) the raw log is run through `TrackSmoother`, the smoothed
/// track becomes a `DistanceProfile` (its length in moving time is the distance), and the raw log
/// is flown again through the same engine with that profile, so the splits, the FDR's distances
/// and the goal come from it while pauses, heart rate and alerts are the live rules' (a stop
/// inside an outage split where the smoothed track's step across the gap says). The
/// elevation gain counts the barometer averaged either side of each sample (`SmoothedAltitude`)
/// rather than the live rule's lagging double EMA.
///
/// The result says which it is (`Flight.distanceMethod`) and keeps the live distance. A flight the
/// smoother cannot improve keeps the live figures and says why (`Flight.smoothingNote`).
public enum FlightSmoothing {
    /// The smoothed flight, or `flight` itself (with a note) when it cannot be smoothed.
    /// `inputs` is the flight's raw log, in the order it was flown; it is iterated three times
    /// (two smoothing passes, the first also gathering the barometer's readings, and the flight
    /// flown again), so a sequence that reads it from storage on each pass keeps no more than a
    /// page in memory (and the barometer's readings, 24 bytes each).
    public static func smoothed(
        _ flight: Flight, inputs: some Sequence<EngineInput>, configuration: EngineConfiguration,
        smoother: TrackSmoother.Configuration = TrackSmoother.Configuration()
    ) -> Flight {
        var live = flight
        live.liveDistance = flight.liveDistance ?? flight.distance
        live.distanceMethod = .live
        guard flight.status == .recorded else { return live }
        // Two passes: the first measures how much the tracks' noise shrinks the speeds.
        // It also learns a paired footpod's scale, which the second uses across outages.
        var corrected = smoother
        var footpodScale: Double?
        var barometer = SmoothedAltitude.Builder(
            rotateAt: flight.startTime, configuration: configuration.altitude)
        let first = profile(flight, inputs: inputs, smoother: smoother) {
            if $0.time <= flight.endTime { barometer.add($0) }
        }
        if let first {
            if let agreement = first.headingAgreement {
                corrected.speedScale = 1 / min(max(agreement, 0.97), 1)
            }
            footpodScale = first.footpod.scale.map { $0 * corrected.speedScale }
        }
        guard
            let (profile, _, _) = profile(
                flight, inputs: inputs, smoother: corrected, footpodScale: footpodScale)
        else {
            live.smoothingNote = "too few fixes to smooth"
            return live
        }
        guard profile.total.isFinite, profile.total >= Flight.minimumDistance else {
            live.smoothingNote = "the smoothed track is too short (\(Int(profile.total)) m)"
            return live
        }
        var computer = FlightComputer(configuration: configuration)
        computer.distanceProfile = profile
        computer.smoothedAltitude = barometer.finish()
        var ticker = ReplayTicker()
        _ = computer.handle(
            .start(
                at: flight.startTime, mission: flight.mission, countdown: false, workout: flight.workout,
                run: flight.runName))
        _ = ticker.ticks(before: flight.startTime)
        for input in inputs {
            if case .end = input { break }
            for tick in ticker.ticks(before: input, in: computer) { _ = computer.handle(.tick(tick)) }
            _ = computer.handle(input)
        }
        if computer.now < flight.endTime { _ = computer.handle(.tick(flight.endTime)) }
        // A forgotten stop lands where the live flight did, even if the log ends short of it.
        if flight.landing == .standstill, computer.isFlying {
            _ = computer.landAfterStandstill(lastMovement: flight.endTime)
        }
        guard var smoothed = computer.end(sentAt: nil).result.flight ?? computer.landedByItself else {
            live.smoothingNote = "the raw log did not fly again"
            return live
        }
        smoothed.distanceMethod = .smoothed
        smoothed.liveDistance = live.liveDistance
        return smoothed
    }

    /// The smoothed track of the flight's fixes, with the flight's pauses taken out; outages a
    /// footpod covered are bridged with its metres × `footpodScale`. Each pressure sample read
    /// on the way is handed to `pressure`.
    static func profile(
        _ flight: Flight, inputs: some Sequence<EngineInput>,
        smoother configuration: TrackSmoother.Configuration, footpodScale: Double? = nil,
        pressure: (PressureSample) -> Void = { _ in }
    ) -> (DistanceProfile, headingAgreement: Double?, footpod: FootpodOdometer.Calibration)? {
        var smoother = TrackSmoother(configuration: configuration)
        var builder: DistanceProfile.Builder?
        let pauses = flight.pauses.map {
            PauseInterval(
                start: $0.start + flight.startTime, end: $0.end + flight.startTime, reason: $0.reason)
        }
        func take(_ points: [TrackSmoother.Point]) {
            guard !points.isEmpty, let projection = smoother.projection else { return }
            if builder == nil {
                builder = DistanceProfile.Builder(
                    projection: projection, startTime: flight.startTime, pauses: pauses)
                builder?.footpod = footpod
                builder?.footpodScale = footpodScale
                footpod = FootpodOdometer()
            }
            for point in points { builder?.add(point) }
        }
        var check = DopplerCheck()
        var footpod = FootpodOdometer()
        for input in inputs {
            if case .pressure(let sample) = input {
                pressure(sample)
                continue
            }
            if case .body(let sample) = input, sample.time >= flight.startTime, sample.time <= flight.endTime
            {
                // Before the first smoothed points the builder does not exist yet.
                if builder == nil { footpod.add(sample) } else { builder?.footpod.add(sample) }
                continue
            }
            guard case .fix(var fix) = input, fix.time >= flight.startTime, fix.time <= flight.endTime else {
                continue
            }
            if let speed = fix.speed, speed > configuration.maxSpeed { fix.speed = nil }
            for checked in check.add(fix) { smoother.add(checked) }
            take(smoother.drain())
        }
        for checked in check.finish() { smoother.add(checked) }
        smoother.finish()
        take(smoother.drain())
        builder?.finish()
        guard let builder, builder.profile.route.count >= 2 else { return nil }
        return (builder.profile, smoother.headingAgreement, builder.calibration)
    }
}
