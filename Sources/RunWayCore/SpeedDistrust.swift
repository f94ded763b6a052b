/// When the odometer stops trusting the receiver's speed, and when it trusts it again (the rule
/// `Odometer`'s summary states; its numbers are `Odometer.Configuration`'s).
///
/// While speed is trusted, counted steps that disagree (integral under half the chord, the chord a
/// walk's speed, the integral not) make a streak; a streak of `distrustAfter` steps over
/// `minimumStreakSpan` seconds that began just after a moving reading, kept going at its pace and
/// marched one way switches speed off. While it is off, `distrustAfter` agreeing steps switch it
/// on again, and so does the march ending: the last steps no longer straight, or slower than the
/// pace that switched it off.
struct SpeedDistrust: Sendable {
    /// One counted step with both its ends known.
    struct Step {
        var from: Coordinate
        var to: Coordinate
        var chord: Double
        var duration: Double
    }

    private(set) var speedIsTrusted = true
    private var disagreeing: [(integral: Double, chord: Double, duration: Double)] = []
    private var streakStart: Coordinate?
    /// Whether the open streak began within `freshness` of the last moving reading, and its speed
    /// then.
    private var streakSpeedBefore: Double?
    private var agreeing = 0
    /// While speed is not trusted, the last steps that still read a lying speed (at least
    /// `distrustAfter` of them, spanning `minimumStreakSpan`), and the pace their net line must
    /// keep: the march that switched speed off must go on for it to stay off.
    private var march: [Step] = []
    private var marchPace = 0.0

    /// A counted step while speed is trusted, whose integral is `integral`; `disagrees` as
    /// `Odometer.count` judged it; `freshSpeed` the moving reading just before the step
    /// (`Odometer.Configuration.freshness`). Returns the step's metres when this step switched
    /// speed off: the streak's net line less what its earlier steps already added. Nil otherwise.
    mutating func trusted(
        _ step: Step?, integral: Double, disagrees: Bool, freshSpeed: Double?,
        _ configuration: Odometer.Configuration
    ) -> Double? {
        guard disagrees, let step else {
            disagreeing.removeAll()
            return nil
        }
        if disagreeing.isEmpty {
            streakStart = step.from
            streakSpeedBefore = freshSpeed
        }
        disagreeing.append((integral, step.chord, step.duration))
        let span = disagreeing.reduce(0) { $0 + $1.duration }
        guard disagreeing.count >= configuration.distrustAfter, span >= configuration.minimumStreakSpan,
            let start = streakStart
        else { return nil }
        defer { disagreeing.removeAll() }
        let net = Geodesy.distance(start, step.to)
        let streakIntegral = disagreeing.reduce(0) { $0 + $1.integral }
        let keptGoing = streakSpeedBefore.map { span > 0 && net / span >= $0 * configuration.keptGoing }
        // A march, not a jump: no one step carries the streak's net line (a multipath jump of
        // 35 m closing a stop's wander in an urban canyon switched speed off and was counted,
        // 4.5 % at the next kilometre mark), and the steps go one way (`marchStraightness`).
        let largest = disagreeing.map(\.chord).max() ?? 0
        let path = disagreeing.reduce(0) { $0 + $1.chord }
        // Nor a net line longer than its steps, which the triangle forbids unless a step was a
        // jump healed short (`MovementFilter`'s detour): a 40 m multipath excursion as a runner
        // stood under trees gave 38.6 m of net line over 15.4 m of steps, and a stop's wander was
        // counted for 60 s.
        guard net * configuration.disagreementRatio > streakIntegral, keptGoing == true,
            largest <= net * configuration.largestStepShare,
            net >= path * configuration.marchStraightness, net <= path * 1.01 + 0.5
        else { return nil }
        speedIsTrusted = false
        march = []
        marchPace = (streakSpeedBefore ?? 0) * configuration.keptGoing
        return net - (streakIntegral - integral)
    }

    /// A counted step while speed is not trusted. `agrees`: the integral was usable and agreed
    /// with the chord; `readsStanding`: the integral's speed under `lyingSpeed`. Returns true
    /// when this step switched speed on again because the march ended: the step is then the
    /// stand's wander, and the integral its metres.
    mutating func distrusted(
        _ step: Step?, agrees: Bool, readsStanding: Bool, _ configuration: Odometer.Configuration
    ) -> Bool {
        agreeing = agrees ? agreeing + 1 : 0
        if agreeing >= configuration.distrustAfter {
            speedIsTrusted = true
            agreeing = 0
        }
        guard readsStanding, let step, step.duration.isFinite else {
            // A speed that reads moving: whether it agrees again is `agreeing`'s to say.
            march = []
            return false
        }
        guard marchEnded(adding: step, configuration) else { return false }
        speedIsTrusted = true
        agreeing = 0
        return true
    }

    /// Adds a step taken while speed is not trusted and still reads under `lyingSpeed`; true
    /// when the last of them no longer march: their net line under `marchStraightness` of their
    /// path, or slower than the pace that switched speed off. A receiver whose speed lies goes on
    /// with the positions (gpsd's `bundg_zeus_9`: 0.9999 of the path at 2.9 m/s); a runner's
    /// stand in fast wander (a varied receiver under an urban canyon: wander σ 7.5 m, τ 16 s)
    /// once made a straight 18 m in 9 s as the runner braked, and without this every step of
    /// the 45 s stop after it was counted (the live distance 104 m long, the stop all moving).
    private mutating func marchEnded(adding step: Step, _ configuration: Odometer.Configuration) -> Bool {
        march.append(step)
        while march.count > configuration.distrustAfter,
            march.dropFirst().reduce(0, { $0 + $1.duration }) >= configuration.minimumStreakSpan
        {
            march.removeFirst()
        }
        let span = march.reduce(0) { $0 + $1.duration }
        guard march.count >= configuration.distrustAfter, span >= configuration.minimumStreakSpan,
            let start = march.first?.from
        else { return false }
        let net = Geodesy.distance(start, step.to)
        let path = march.reduce(0) { $0 + $1.chord }
        let ended = net < path * configuration.marchStraightness || net / span < marchPace
        if ended { march = [] }
        return ended
    }
}
