/// How the first step back after a signal gap divides the gap between running and standing
/// (issue 26): pure, from the step (`PauseDetector.GapCrossing`), the readings before the gap and
/// when the pause began. `PauseDetector` applies the verdict (closes the running it finds at the
/// gap's start, resumes where it says), so a replay judges every gap as the live run did.
struct GapJudgement {
    /// `ranFirst` seconds of running from the gap's start (0: none there), and where the moving
    /// time resumes.
    struct Verdict: Equatable {
        var ranFirst: Double
        var resume: Double
    }

    var configuration: PauseDetector.Configuration
    /// When the pause began: the gap's start.
    var pausedAt: Double
    /// The mean of the running readings before the gap.
    var before: Double?
    /// The running pace before the gap (the upper median of those readings: their mean takes in
    /// the braking).
    var pace: Double?
    /// The last reading before the gap.
    var lastSpeed: Double?
    /// Seconds between the last two fixes.
    var fixInterval: Double

    /// Headroom on the √2 staircase: the speeds either side of a gap are single readings
    /// (±5 % each at 2σ), and the pace through it is not quite theirs. Without it, a run round
    /// two corners of a city block (225 m in 75 s, chord 161 m, readings 3.15 and 3.19 m/s for
    /// 3.0) was booked with a 25 s stop.
    static let staircaseHeadroom = 1.1

    /// How far short a gap's chord can read (m): its ends are placed by fixes, each a few metres
    /// off (under trees, wander 4 m on the open sky's 2.5 m). Without it a 16 s gap round a
    /// park's corner under trees, its smoothed chord 34 m for ~50 m run, was booked with a
    /// 4.5 s stop once the staircase came down from √2 (random short outages over "tree
    /// cover, 2 stops").
    static let chordNoise = 10.0
    /// Headings at a gap's two edges within this of parallel or square (degrees) can be one
    /// street grid's: a receiver's track is good to a few degrees, a city's blocks to ~10.
    static let gridTolerance = 20.0

    /// How much longer than its chord a path through a street grid can be, the grid square to
    /// the runner's heading: |cos α| + |sin α|, α the chord's angle to that heading (1 along it,
    /// √2 at 45°), however many corners the staircase has. Two corners of a 125 m block (100 m
    /// east, 125 m north) make a chord 51° off the way the runner ran in, 1.41; a chord along
    /// that way is a straight, and a 30 s stop in an 80 s gap there was hidden by the flat √2
    /// (random short outages over "outage to a stop": 31 s of a run booked as moving).
    /// - Both edges' headings known: the larger of their two ratios when they are parallel or
    ///   square (`gridTolerance`), as one grid's are; otherwise the runner was on no one grid at
    ///   both edges (a park's rounded corner, the entry mid-turn) and the path is a bend's, at
    ///   most `bend` × the chord: 1.
    /// - One known: its ratio. None: nil (√2).
    ///
    /// `verdict` takes no less than 1 + `chordNoise` ÷ the step (a step of 24 m or less: √2): the
    /// step itself may read that much short.
    static func staircase(bearing: Double, entry: Double?, exit: Double?) -> Double? {
        func ratio(_ heading: Double) -> Double {
            let alpha = Geodesy.turn(from: heading, to: bearing) * .pi / 180
            return abs(CMath.cos(alpha)) + abs(CMath.sin(alpha))
        }
        switch (entry, exit) {
        case (nil, nil): return nil
        case (let heading?, nil), (nil, let heading?): return ratio(heading)
        case (let entry?, let exit?):
            let turn = Geodesy.turn(from: entry, to: exit)
            let offGrid = min(turn, abs(turn - 90), 180 - turn)
            return offGrid <= gridTolerance ? max(ratio(entry), ratio(exit)) : 1
        }
    }

    /// How much longer than its chord a path round one turn of `turn` degrees (either way) can
    /// be: chord ÷ cos(θ/2), taken up to a turn of 120° (× 2).
    static func bend(turn: Double) -> Double {
        1 / Swift.max(CMath.cos(Swift.min(abs(turn), 120) * .pi / 360), 0.5)
    }

    /// How much longer than `step` the path across a gap could be: the larger of a turn's
    /// `bend` and the grid's `staircase` (nil: √2), the latter no tighter than the step's own
    /// noise allows (1 + `chordNoise` ÷ the step) and never over √2.
    static func room(staircase: Double?, bend: Double, step: Double) -> Double {
        let noise = step > 0 ? 1 + chordNoise / step : .infinity
        let grid = Swift.min(Swift.max(staircase ?? 2.0.squareRoot(), noise), 2.0.squareRoot())
        return Swift.max(bend, grid)
    }

    /// The share of the speeds held either side of a silence that its `chord` must keep for the
    /// runner to have kept going: `base` where the path could be √2 × the chord (a square corner,
    /// a block's staircase), rising by √2 over the `room` the edge headings leave (the `turn`'s
    /// bend, the grid's `staircase`) where it could be less. The live odometer's rule
    /// (`Odometer.Configuration.keptGoing`) and the saved flight's bridge
    /// (`DistanceProfile.Builder.keptGoingShare`) both read it.
    static func keptGoingShare(_ base: Double, chord: Double, turn: Double?, staircase: Double?) -> Double {
        let bend = turn.map(Self.bend(turn:)) ?? 1
        let room = Swift.min(Self.room(staircase: staircase, bend: bend, step: chord), 2.0.squareRoot())
        return base * 2.0.squareRoot() / room
    }

    /// Where the moving time resumes after a signal gap that `crossing` stepped across
    /// (`effective`: where the moving evidence alone would resume it):
    /// - with the running speeds either side known, the chord ÷ their mean is how long the runner
    ///   ran through it. A route through a street grid is a staircase, at most √2 × its chord
    ///   whatever the turns and less where the chord lies near the runner's way (`staircase`),
    ///   and a path round one turn at most `bend` × its chord; only a gap
    ///   the chord cannot fill at the larger of the two held a stop (their product admitted
    ///   1.84 × the chord at a 64° turn, and a 30 s stop in a 61 s gap whose first reading back
    ///   was 0.83 of the pace passed for running: "outage to a stop", 1 seed in 100, and 20 with
    ///   the turn measured over the whole step, not from the last fix). Then half
    ///   the running at each end, the stop between (a chord slower than walking is such a gap:
    ///   ran 15 s, stood 45 s, ran 15 s);
    /// - without them, a chord at least at walking pace says the runner went on through it;
    /// - with the headings turned back and running readings at both edges, the runner went
    ///   round a turn-around (`Odometer.Configuration.turnedBack`): all of it was running.
    ///
    /// A reading at one edge well under the running speed at the other (`edgeShare`) puts the
    /// stop at that edge: a getting-going reading after the gap, the stop ended as the signal
    /// came back, and the running was all before it; a braking one before the gap, the stop
    /// began as it went, and the running was all after. The speed is then the other side's.
    func verdict(_ crossing: PauseDetector.GapCrossing, otherwise effective: Double) -> Verdict {
        let gap = crossing.time - pausedAt
        let after = crossing.speed
        let share = configuration.edgeShare
        // A reading back that says standing is getting going's strongest form: the runner stood
        // at the gap's end, whatever the reading before it.
        let slowBack = pace.map { b in after.map { $0 < share * b } ?? false } ?? false
        let gettingGoing = crossing.standing || (slowBack && rose(after: crossing, pace: pace))
        // And a last reading before it that said standing is pulling up's: the runner stood as
        // the signal went (its running readings, and with them the pace, are gone).
        let stoodBefore = lastSpeed.map { $0 < configuration.movingSpeed } ?? false
        let pullingUp =
            !crossing.standing && (stoodBefore || pace.map { b in (lastSpeed ?? b) < share * b } ?? false)
        let around: [Double]
        // The pace after the gap: the reading back and the running ones after it so far (one
        // reading's ±0.1 m/s is ±1 s of a 30 s run; `GapCrossing.heldAfter`).
        let held = crossing.heldAfter
        if gettingGoing, let before {
            around = [before]
        } else if pullingUp, let held {
            around = [held]
        } else {
            around = [before, held].compactMap { $0 }
        }
        guard !around.isEmpty else {
            guard !crossing.standing else { return Verdict(ranFirst: 0, resume: effective) }
            let ranOn = crossing.step * crossing.bend / gap >= configuration.walkingSpeed
            return Verdict(ranFirst: 0, resume: ranOn ? pausedAt : effective)
        }
        let speed = around.reduce(0, +) / Double(around.count)
        // The step began at its anchor, up to a fix interval before the gap: that running is
        // already moving time ("stop in an outage": the gap's running came out 2.2 m long on
        // average over 200 gaps, the step measured from a fix before the last).
        let running = max(0, crossing.step / speed - max(0, pausedAt - crossing.since))
        let room = Self.room(staircase: crossing.staircase, bend: crossing.bend, step: crossing.step)
        if !gettingGoing, !pullingUp,
            crossing.turnedBack || running * room * Self.staircaseHeadroom >= gap - 2 * fixInterval
        {
            return Verdict(ranFirst: 0, resume: pausedAt)
        }
        // At an edge the signal saw, that edge's braking or getting going is in the readings.
        let cost =
            gettingGoing == pullingUp
            ? configuration.stopCost(speed: speed)
            : gettingGoing
                ? configuration.pullingUpCost(speed: speed) : configuration.gettingGoingCost(speed: speed)
        let moving = min(running + cost, gap)
        if gettingGoing == pullingUp {
            return Verdict(ranFirst: moving / 2, resume: crossing.time - moving / 2)
        }
        if gettingGoing {
            // Ran on into the gap and stood until the signal came back: a getting-going reading
            // back resumes it no earlier than itself (a moving streak begun at fixes between two
            // silences, the first's pause not yet resumed, dated the set-off before the second:
            // "outage to a stop" with random short outages, a 45 s stop all running). A standing
            // one leaves it to the streak to come (`settleGap`).
            let back = crossing.standing ? effective : crossing.time - fixInterval / 2
            return Verdict(ranFirst: moving, resume: max(effective, back, pausedAt + moving))
        }
        return Verdict(ranFirst: 0, resume: crossing.time - moving)
    }

    /// Whether the readings after a slow first one back (`crossing.speed`) rose as a runner's
    /// getting going does, by at least half of a second's acceleration at `gettingGoing` (or of
    /// what is left to `pace`): a reading at a new, slower pace stays where it is. An interval's
    /// rep ending in an outage came back at the recovery's 2 m/s after 5, under `edgeShare` of
    /// the pace, and the gap was booked with a stop at its end (`--short-outages 15`,
    /// "intervals 6 × 400 m": 16 s of a run without stops). True with no reading after it yet:
    /// a slow reading alone is taken for getting going, as it was.
    func rose(after crossing: PauseDetector.GapCrossing, pace: Double?) -> Bool {
        guard let first = crossing.speed, let fastest = crossing.fastestAfter, let pace else { return true }
        return fastest - first >= 0.5 * min(configuration.gettingGoing, pace - first)
    }

    /// Where the moving time resumes after a silence that came in an automatic pause: the runner
    /// stood where the pause began, so the step back was run at its end, at the speed read after
    /// it, getting going included (`stopCost`'s second half). Without a speed after it, or when
    /// the moving streak (`effective`) began after that step (a wander step with one noisy
    /// reading, the runner still standing), where the streak began.
    func resumeAfterStanding(_ crossing: PauseDetector.GapCrossing, otherwise effective: Double) -> Double {
        guard let speed = crossing.speed, speed > 0, effective <= crossing.time else { return effective }
        return min(
            effective, crossing.time - crossing.step / speed - configuration.gettingGoingCost(speed: speed))
    }
}

extension PauseDetector {
    /// The first step back after a signal gap: when, when it began (its anchor fix, which may be
    /// before the last fix), how far (the odometer's measure of the path: an arc where the
    /// headings turned), how much longer a path round the turn could be (`bend`, for telling a
    /// corner from a stop), whether the headings say the runner turned back (more than
    /// `RouteShape.largestArcTurn`), the receiver's speed then when it said moving, whether
    /// it said standing, and the fastest of the receiver's readings after it until the flight
    /// resumes (nil: none yet).
    struct GapCrossing: Sendable, Equatable {
        var time: Double
        var since: Double
        var step: Double
        var bend: Double
        /// How much longer a path through a street grid could be (`GapJudgement.staircase`, √2
        /// when the headings do not say).
        var staircase = 2.0.squareRoot()
        var turnedBack: Bool
        var speed: Double?
        var standing: Bool
        var fastestAfter: Double? = nil
        /// The running readings after the step back until the gap is judged, up to
        /// `DistanceProfile.Builder.heldSpeedSamples` with `speed`.
        var readingsAfter: [Double] = []

        /// The mean of the reading back and the running ones after it (nil: no running reading
        /// back).
        var heldAfter: Double? {
            speed.map { ($0 + readingsAfter.reduce(0, +)) / Double(1 + readingsAfter.count) }
        }

        /// This crossing run on to `next`, the step ending another silence that came before the
        /// flight resumed (a fix or two between two outages): the gap from this one's start to
        /// `next`, its step both steps, a turn-back in either part the whole gap's. Judged from
        /// the first alone, 9 s with a single fix after it, an 84 s silence holding a 45 s stop
        /// was all running (random short outages over "stop in an outage": 45 s a run).
        func continued(to next: GapCrossing) -> GapCrossing {
            var joined = next
            joined.since = since
            joined.step = step + next.step
            joined.bend = joined.step > 0 ? (step * bend + next.step * next.bend) / joined.step : 1
            joined.staircase =
                joined.step > 0
                ? (step * staircase + next.step * next.staircase) / joined.step : 2.0.squareRoot()
            joined.turnedBack = turnedBack || next.turnedBack
            return joined
        }
    }
}

extension PauseDetector.Configuration {
    /// The moving seconds a stop adds beyond its metres at running speed `speed`: braking from
    /// it to `movingSpeed` (below that the runner counts as standing) and getting going again
    /// take longer than their metres would at speed, by (v − m)² / 2v × (1/d + 1/a) — 1.2 s at
    /// 3 m/s. A gap's running measured as its metres ÷ the speed either side misses it
    /// whenever the runner stopped inside: over 100 seeds of "stop in an outage" the truth's
    /// moving time in each gap was 1.3 s longer than its path at 3 m/s.
    func stopCost(speed: Double) -> Double {
        pullingUpCost(speed: speed) + gettingGoingCost(speed: speed)
    }

    /// `stopCost`'s braking half, (v − m)² / 2v ÷ d.
    func pullingUpCost(speed: Double) -> Double {
        let slowing = max(0, speed - movingSpeed)
        return slowing * slowing / (2 * speed) / pullingUp
    }

    /// `stopCost`'s getting-going half, (v − m)² / 2v ÷ a.
    func gettingGoingCost(speed: Double) -> Double {
        let slowing = max(0, speed - movingSpeed)
        return slowing * slowing / (2 * speed) / gettingGoing
    }
}
