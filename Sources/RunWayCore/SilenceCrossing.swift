/// A step across a silence as the odometer credited it (`Odometer.count`): what it added, on
/// which chord, and what decided that — the speeds either side held through it (the kept-going
/// rule, `Odometer.Configuration.keptGoing`) or the turn of the arc. Kept until another silence
/// comes, so the fixes after it can correct it twice: the speed after revised once
/// (`revise`), the exit measured again once (`remeasure`). Each returns the metres to add to
/// the odometer's distance (either sign), nil when nothing changed.
struct SilenceCrossing: Sendable {
    var credited: Double
    var chord: Double
    var held: Double?
    var turn: Double?
    /// How much longer than the chord a street grid's path could be (`GapJudgement.staircase`;
    /// nil: √2).
    var staircase: Double?
    /// The kept-going rule's speeds, until the speed after is revised.
    var revision: Revision?
    /// Its exit was measured again (`remeasure` does it once).
    var remeasured = false
    /// At rest at both edges: measured again, a chord within `standingWander` is the stand's
    /// wander, nothing.
    var standing = false

    struct Revision: Sendable {
        var before: Double
        var duration: Double
        var speedsAfter: [Double]
    }

    /// The step is counted at the first fix after the silence, when only one reading says the
    /// speed after it (±0.1 m/s: ±4 m over a 75 s outage; "city outages on corners" stepped
    /// −6 … +11 m off the truth at the outages' ends). The speed after is revised to the mean of
    /// the running readings gathered in `revision.speedsAfter` (the first
    /// `DistanceProfile.Builder.heldSpeedSamples`, fewer if the runner slows under
    /// `minimumImpliedSpeed` or another silence comes first), as the speed before already is,
    /// and the kept-going rule is judged again on it: the speeds held, or, when they say the
    /// chord could not hold them (or the first reading was a getting-going one), the arc.
    mutating func revise(_ configuration: Odometer.Configuration) -> Double? {
        guard let revision else { return nil }
        self.revision = nil
        guard !revision.speedsAfter.isEmpty else { return nil }
        let after = revision.speedsAfter.reduce(0, +) / Double(revision.speedsAfter.count)
        let speedsHeld = (revision.before + after) / 2 * revision.duration
        let revised: Double
        let newHeld: Double?
        if configuration.keptGoing(
            chord: chord, duration: revision.duration, before: revision.before, after: after, turn: turn,
            staircase: staircase)
            && revision.speedsAfter[0] >= configuration.edgeShare * after
        {
            revised = max(chord, speedsHeld)
            newHeld = speedsHeld
        } else if let turn {
            // A stop inside after all, on the arc.
            revised = RouteShape.arcLength(chord: chord, turn: turn * .pi / 180)
            newHeld = nil
        } else {
            revised = max(chord, speedsHeld)
            newHeld = speedsHeld
        }
        guard revised.isFinite else { return nil }
        held = newHeld
        defer { credited = revised }
        return revised - credited
    }

    /// The step measured again on `chord`, once the fixes after it have said where it really
    /// ended: the same rule (the speeds held, never under the chord, or the arc), on the new
    /// chord. Six fixes 40 m off at an outage's exit made its step 15 m long, and the live
    /// distance 0.89 % long at the next kilometre mark ("outages on a straight", seed 50 of 100;
    /// 0.39 % measured again).
    ///
    /// At rest at both edges, a chord past the standing wander is counted; measured again within
    /// it, it was a jump on the first fix back, and the step is nothing. A varied receiver's
    /// multipath fix 36 m off as the signal came back inside a light's wait was counted, the
    /// voted exit 1.6 m from the entry, and the live distance 32 m long from there ("short
    /// outages at stops", `--varied-receiver` seed 97 of 100).
    mutating func remeasure(chord newChord: Double, _ configuration: Odometer.Configuration) -> Double? {
        guard !remeasured, newChord.isFinite, newChord >= 0 else { return nil }
        remeasured = true
        let revised: Double
        if standing {
            revised = newChord <= configuration.standingWander ? 0 : newChord
        } else if let held {
            revised = max(newChord, held)
        } else if let turn {
            revised = RouteShape.arcLength(chord: newChord, turn: turn * .pi / 180)
        } else {
            return nil
        }
        guard revised.isFinite else { return nil }
        chord = newChord
        defer { credited = revised }
        return revised - credited
    }
}

extension SilenceCrossing {
    /// The readings at a silence's edges: the mean of the last before it (`before`), the first
    /// after it (`after`), the last before it (`lastBefore`), and the pace before it (the upper
    /// median of the readings since the silence before: `pace`). Readings at rest are 0.
    typealias Speeds = (before: Double, after: Double, lastBefore: Double, pace: Double)

    /// The step across a silence the speeds at its edges decide (`Odometer.count`), in order:
    /// - moving at both edges and a chord no speed there could have run (over
    ///   `silenceJumpRatio` × the fastest × the silence + `silenceJumpSlack`): the receiver's
    ///   solution moved inside it (a cold start's offset snapping away in an outage read as
    ///   200 m of running, the live distance 19 % long at a kilometre mark with random short
    ///   outages): the speeds held;
    /// - at rest at both edges and a chord within `standingWander`: the wander's, nothing
    ///   ("short outages at stops": 7–11 m a run, a silence inside a light's wait); past it the
    ///   chord, measured again once the fixes after it vote on the exit;
    /// - the kept-going rule, with a moving pace before it and running readings at both edges
    ///   (`edgeShare`): the speeds held (or the chord, if longer), credited to be revised;
    /// - moving at both edges, headings known: the runner stopped in it, the arc its headings
    ///   in and out make (the saved flight's rule, `DistanceProfile.Builder.bridgeStops`), never
    ///   shorter than the chord ("stop in an outage" live worst 1.06 → 1.00 %, moving time 2.8 →
    ///   2.5 s a stop). At rest at an edge the runner has no heading there (it may have turned
    ///   where it stood, at a corner's light).
    /// Nil when none applies: the odometer's other rules take the step (the chord).
    static func step(
        across gap: Speeds, chord: Double, duration: Double, turn: Double?, staircase: Double? = nil,
        _ configuration: Odometer.Configuration
    ) -> (metres: Double, crossing: SilenceCrossing?)? {
        if duration.isFinite, min(gap.lastBefore, gap.after) >= configuration.keptGoingPace,
            chord > configuration.silenceJumpRatio * max(gap.before, gap.lastBefore, gap.after) * duration
                + configuration.silenceJumpSlack
        {
            return ((gap.before + gap.after) / 2 * duration, nil)
        }
        if gap.lastBefore == 0, gap.after == 0 {
            guard chord > configuration.standingWander else { return (0, nil) }
            // Past the wander: the chord, until the fixes after it vote on the exit (`remeasure`).
            return (chord, SilenceCrossing(credited: chord, chord: chord, standing: true))
        }
        if duration.isFinite,
            configuration.keptGoing(
                chord: chord, duration: duration, before: gap.before, after: gap.after, turn: turn,
                staircase: staircase),
            gap.pace >= configuration.keptGoingPace,
            min(gap.lastBefore, gap.after) >= configuration.edgeShare * gap.pace
        {
            let held = (gap.before + gap.after) / 2 * duration
            let credited = max(chord, held)
            let crossing = SilenceCrossing(
                credited: credited, chord: chord, held: held, turn: turn, staircase: staircase,
                revision: .init(before: gap.before, duration: duration, speedsAfter: [gap.after]))
            return (credited, crossing)
        }
        if gap.lastBefore > 0, gap.after > 0, duration.isFinite, let turn {
            let arc = RouteShape.arcLength(chord: chord, turn: turn * .pi / 180)
            return (arc, SilenceCrossing(credited: arc, chord: chord, turn: turn, staircase: staircase))
        }
        return nil
    }
}

extension Odometer.Configuration {
    /// The kept-going rule: a chord at least `keptGoingShare` of the speeds either side held
    /// through the silence, or headings that say the runner turned back (`turnedBack`).
    ///
    /// `keptGoingShare` leaves room for a street grid's staircase (√2 × the chord); where the
    /// chord lies along the way the runner ran in and out (`GapJudgement.staircase`, with the
    /// turn's bend and the chord's own noise: `GapJudgement.room`) there is less, and the share
    /// rises by √2 over that room (a straight: 0.55 × √2 ÷ 1.09 = 0.71 for a 110 m chord). A
    /// 30 s stop in a 65 s silence on a straight kept 0.58 of the speeds held and was run
    /// through, the live distance 94 m long from there on (random short outages over "stop in
    /// an outage").
    func keptGoing(
        chord: Double, duration: Double, before: Double, after: Double, turn: Double?,
        staircase: Double? = nil
    ) -> Bool {
        let share = GapJudgement.keptGoingShare(
            keptGoingShare, chord: chord, turn: turn, staircase: staircase)
        return chord >= share * (before + after) / 2 * duration
            || turn.map { abs($0) > turnedBack } == true
    }
}
