/// Turns counted movement into distance (SPEC "Beyond the seed").
///
/// A sum of position steps grows with position noise: every metre of sideways wander and every
/// multipath jump adds length. The receiver's Doppler speed is far less noisy and unbiased while
/// moving, so the odometer integrates speed over time (trapezoids between accepted fixes) and
/// spends that integral when the movement filter counts a step. Positions guard the integral:
/// when speeds are missing, span a long gap, or claim far more travel than the positions allow
/// (and are not a runner's steady velocity: `coherentTurn`), the great-circle step is used
/// instead.
///
/// A chord much *longer* than the integral is, once, the signature of a position jump
/// (multipath), so a single such step keeps the integral. But receivers also report a speed that
/// is plainly wrong while their positions march on — gpsd's `bundg_zeus_9` capture reads 0–0.4 m/s
/// for 38 s while the boat moves at 2.9 m/s. After `distrustAfter` consecutive counted steps whose
/// integral is under half the chord while the chord implies at least `minimumImpliedSpeed`, the
/// odometer looks at where those steps went: if the straight line from the first step's start to
/// the last step's end is also more than twice their integral, the receiver's speed is wrong. It
/// stops trusting speed, credits the steps with that straight line, and counts chords until
/// `distrustAfter` steps agree again. A multipath excursion also makes disagreeing steps — out
/// and back — but it returns where it left, so its net line agrees with the integral and speed
/// stays trusted. Wander at rest cannot pass either: it would have to carry a fix 5 m in under
/// 5 s, three times running.
public struct Odometer: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Below this, a reported speed is receiver noise at rest and integrates as 0.
        public var restSpeed: Double = 0.4
        /// Trapezoids never span a silence longer than this (the signal-loss limit).
        public var maxIntegrationGap: Double = 8
        /// The integral is rejected when it exceeds `chord × ratio + slack`…
        public var maxIntegralToChordRatio: Double = 2
        public var maxIntegralSlack: Double = 10
        /// …unless it averaged a running speed (at least `minimumImpliedSpeed`) and every moving
        /// reading in it gave a track no more than this (degrees) from the moving reading before:
        /// a receiver's velocity that coherent is the runner's, and the positions are what lags.
        /// A cold start's offset decaying against the runner's way held the fixes within metres
        /// for half a minute while Doppler read 3 m/s, and the integral was thrown away: the live
        /// distance 90 m short at every kilometre mark ("cold start, decaying", 100 seeds: 9.1 %
        /// at the first). A Doppler reading noise at rest has no such track, nor such a mean.
        public var coherentTurn: Double = 45
        /// A step disagrees only while the receiver's own speed over it reads under this: a speed
        /// that lies reads "standing" (gpsd's `bundg_zeus_9`: 0–0.4 m/s at 2.9 m/s). A Doppler
        /// that says running while the positions race ahead is right, and they are wrong: a cold
        /// start's offset decaying back across hundreds of metres was taken for the runner, and
        /// the live distance read up to 33 % long at a kilometre mark.
        public var lyingSpeed = 1.0
        /// A disagreeing streak is a march only when no single step is more than this share of
        /// its net line (gpsd's `bundg_zeus_9` marches in even steps).
        public var largestStepShare = 0.5
        /// …and its net line is at least this share of its steps' sum: a march goes one way
        /// (gpsd's `bundg_zeus_9`: 0.9999), a stop's wander folds back on itself. Under trees
        /// (wander σ 4 m, τ 20 s, white 1.5 m) a standing runner's fixes once made three steps
        /// in 8 s with a net line of 11 m, 1.4 m/s, but 0.69 of their 16 m: speed went off, the
        /// wander was counted for 38 s (tree cover, 100 seeds: the live distance 32 m long at a
        /// kilometre mark, the moving time 20 s long).
        public var marchStraightness = 0.8
        /// Across a silence longer than `maxIntegrationGap`, a chord at least this share of the
        /// speeds either side × the silence says the runner kept going (a single 90° corner
        /// keeps 0.71 of the path, two ~0.66; a 45 s stop inside a 75 s silence keeps 0.4): the
        /// step is those speeds × its time, not the chord that cuts the corners ("city outages
        /// on corners": the live distance 5.8 % short at a kilometre mark; at 0.65 an outage over
        /// two corners fell just under and stayed 60 m short). The saved flight's bridge judges
        /// by the same share and room (`DistanceProfile.Builder.keptGoingShare`).
        public var keptGoingShare = 0.55
        /// …and only when the reading at each edge of the silence says running, at least this
        /// share of the running speed before it (the median of the last readings: their mean
        /// takes in the braking): a braking reading as the signal went, or a getting-going one
        /// (~1 m/s) as it came back, puts a stop at that end of the silence, and the speeds held
        /// through it then count the stop as running (a hostile pass: an outage ending as the
        /// runner set off after 45 s read 5.9 % long, one beginning as the runner stood 1.9 %).
        /// Under trees (σ 0.3 m/s) a reading 40 % under a 3 m/s pace is a four-σ one.
        public var edgeShare = 0.6
        /// A silence whose headings in and out differ by more than this (degrees) turned the
        /// runner back, and across a turn-around the chord is the path's width, not its length:
        /// running readings at both edges then say the runner kept going round (a riverside
        /// hairpin, 40 m across: the chord kept 0.22 of a minute's running, and the arc, capped
        /// at `RouteShape.largestArcTurn`, left the live distance 5.4 % short after it,
        /// "outages on a hairpin"). A stop inside such a silence is counted as running: no
        /// reading tells it from the turn-around. The pause rule and the saved flight's bridge
        /// read the same limit.
        public var turnedBack = RouteShape.largestArcTurn * 180 / .pi
        /// Through a silence the distance shown goes on at the last trusted speed for at most
        /// this long (`carry(to:)`): an underpass or a tunnel of a minute or so (issue 26's city
        /// blocks) froze the display for its length, 1.5 % behind at a kilometre mark on a
        /// straight and 6 % round corners. Beyond it the runner may have stopped or gone indoors,
        /// and the display waits for fixes.
        public var maxCarry: Double = 120
        /// The speeds held through a silence need a moving pace before it (the upper median of
        /// the readings since the last silence, m/s): a walker's 1.3 passes, a stand's rectified
        /// noise does not (at rest before and running after, the mean of 0 and 3 m/s held over
        /// 27 s passed the kept-going share: 40 m for 25.5, "short outages at stops").
        public var keptGoingPace: Double = 1
        /// Across a silence with moving readings at both edges, a chord longer than this many
        /// times the fastest speed there × its length, plus `silenceJumpSlack` metres (two
        /// fixes' wander), is a jump of the receiver's solution, not running: a runner covers
        /// at most its path, and a path is at least its chord. (Standing at an edge, the runner
        /// may have gone faster in between.)
        public var silenceJumpRatio: Double = 1.5
        public var silenceJumpSlack: Double = 20
        /// Across a silence with a reading at rest at both edges, a chord up to this long (m) is
        /// the wander's, not the runner's: urban wander moves a standing fix ~9 m in a minute
        /// (RMS), a tree cover's more; beyond it the runner went somewhere between two stands.
        public var standingWander: Double = 25
        /// Faster than this, a single speed sample is a spike and invalidates its interval.
        public var maxSpeed: Double = 12
        /// Consecutive disagreeing (or agreeing) steps that switch speed off (or on again).
        public var distrustAfter = 3
        /// A step disagrees when its integral is under this share of its chord…
        public var disagreementRatio = 0.5
        /// …and the chord implies at least this speed: a walk's. Under trees, with rough fixes
        /// counted (`AccuracyGate`), a standing runner's wander (τ 20 s) implied over 1 m/s and
        /// switched speed off, and the positions resumed a stop (tree cover: 9.9 s a stop at
        /// worst); gpsd's `bundg_zeus_9` (a receiver reading 0 at 2.9 m/s) still trips it.
        public var minimumImpliedSpeed = 1.5
        /// A streak of disagreeing steps switches speed off only when it began within this many
        /// seconds of a reading that said moving, and its net line went at least `keptGoing` of
        /// that reading's speed (issue 26). A boat whose speed drops to 0 while it goes on covers
        /// its speed (bundg: 2.9 of 2.9 m/s); a runner who stopped amid tree-cover wander (σ 4 m,
        /// white 1.5 m) makes 5 m steps in under 5 s three times running often enough, but their
        /// net line goes well under half a running speed, and later in a stop there is no fresh
        /// moving reading at all. Without this, such a streak switched speed off and the stop's
        /// wander became distance and moving time (tree cover: 25 s per stop).
        public var freshness = 4.0
        public var keptGoing = 0.5
        /// …and it lasted this long: a runner's last braking metres and the first wander steps of
        /// a stop make three disagreeing steps in 3 s (7.8 m, `runway-bench conditions`, tree
        /// cover); a boat's lie lasts 38 s.
        public var minimumStreakSpan = 6.0

        public init() {}
    }

    public let configuration: Configuration
    /// Total distance in metres.
    public private(set) var distance: Double = 0
    private var pending: Double = 0
    private var pendingValid = true
    /// Every moving reading integrated into `pending` had a track, each within `coherentTurn`
    /// of the one before; the track of the last reading when it was moving.
    private var pendingCoherent = true
    private var lastTrack: Double?
    /// The distance the runner is shown: `distance` and the speed integral not yet spent (while
    /// speed is trusted and the integral has no gap), never going back but for a rewind. Shown
    /// only at counted steps, the distance moved in chunks of two fixes at 4 m/s inside the
    /// 5 m anchor (a 400 m interval ended at 408 m), and under trees the wander held a running
    /// runner in the anchor for seconds (the display trailed by up to 16 m).
    public private(set) var shown: Double = 0
    /// What the PFD shows: `shown`, carried on through a silence (`carry(to:)`). Apart from
    /// `shown` because it follows the ticks, whose times differ between the live run and a
    /// replay of its raw log; everything recorded (FDR samples, splits, the flight's distance)
    /// is `shown`, so recovery gives the flight the runner landed.
    public private(set) var display: Double = 0
    /// Set while the button or a vehicle pauses the flight: the integral still runs (the
    /// receiver's speeds are the evidence that ends a vehicle's pause) but is not shown — a
    /// drive of ten minutes showed 60 m of it.
    public var hidesPending = false
    private var last: (time: Double, speed: Double?)?
    /// False while the receiver's speed disagrees with its positions (see above).
    public var speedIsTrusted: Bool { distrust.speedIsTrusted }
    private var distrust = SpeedDistrust()
    /// The last reading that said moving (at least `minimumImpliedSpeed`), and when.
    private var lastMoving: (time: Double, speed: Double)?
    /// The speeds either side of the last silence longer than `maxIntegrationGap` (nil when
    /// either was unknown), until the step across it is counted.
    private var gapSpeeds: SilenceCrossing.Speeds?
    /// The last few usable speeds since the last silence: the speed held into the next one is
    /// their mean (`DistanceProfile.Builder.heldSpeedSamples`), not one reading's ±0.1 m/s,
    /// which over a minute's outage is ±6 m ("city outages on corners": 17 m short at the
    /// first kilometre mark on one seed).
    private var recentSpeeds: [Double] = []
    /// The last step across a silence credited by the speeds held or by the arc, until another
    /// silence comes: its speed after revised once, its exit measured again once.
    private var crossing: SilenceCrossing?
    /// A paired footpod: across a silence, its metres (scaled to GPS's) are the step and what
    /// the display carries, instead of the speeds either side held through it.
    private var footpod = LiveFootpod()

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// True when the step the next `count` spends crosses a silence: no speed integral covers
    /// it (a gap longer than `maxIntegrationGap`, or a fix without a usable speed).
    public var spansSilence: Bool { !pendingValid }

    /// Feeds every accepted fix (counted or held) in time order, with its speed and, when the
    /// receiver gives one, its track (degrees).
    public mutating func integrate(time: Double, speed: Double?, track: Double? = nil) {
        let usable: Double? = speed.flatMap { s in
            guard s.isFinite, s <= configuration.maxSpeed else { return nil }
            return s < configuration.restSpeed ? 0 : s
        }
        let moving = usable.map { $0 > 0 } ?? false
        if moving {
            let turn = track.map { now in lastTrack.map { abs(Geodesy.turn(from: $0, to: now)) } ?? 0 }
            if (turn ?? .infinity) > configuration.coherentTurn { pendingCoherent = false }
        }
        defer {
            last = (time, usable)
            lastTrack = moving ? track : nil
            if let usable, usable >= configuration.minimumImpliedSpeed { lastMoving = (time, usable) }
        }
        guard let last else {
            recentSpeeds = usable.map { [$0] } ?? []
            footpod.fix(at: time, integral: nil)
            return
        }
        let dt = time - last.time
        defer { remember(usable) }
        guard dt > 0, dt <= configuration.maxIntegrationGap, let v0 = last.speed, let v1 = usable else {
            if dt > configuration.maxIntegrationGap || usable == nil { reviseBridge() }
            if dt > configuration.maxIntegrationGap { crossing = nil }
            footpod.fix(at: time, integral: nil)
            if dt > configuration.maxIntegrationGap, let before = heldSpeed, let v0 = last.speed,
                let v1 = usable, let pace = recentSpeeds.upperMedian
            {
                gapSpeeds = (before, v1, v0, pace)
            }
            if dt > configuration.maxIntegrationGap || usable == nil { recentSpeeds.removeAll() }
            pendingValid = false
            return
        }
        pending += (v0 + v1) / 2 * dt
        footpod.fix(at: time, integral: (v0 + v1) / 2 * dt)
        show()
        if crossing?.revision != nil {
            if v1 >= configuration.minimumImpliedSpeed { crossing?.revision?.speedsAfter.append(v1) }
            if v1 < configuration.minimumImpliedSpeed
                || crossing?.revision?.speedsAfter.count ?? 0 >= DistanceProfile.Builder.heldSpeedSamples
            {
                reviseBridge()
            }
        }
    }

    /// Revises the last step across a silence once the running readings after it are in
    /// (`SilenceCrossing.revise`), and the distance takes the difference. The shown distance
    /// never goes back: a step the revision takes away holds it until the runner has run it.
    private mutating func reviseBridge() {
        guard let difference = crossing?.revise(configuration) else { return }
        distance = max(0, distance + difference)
        show()
    }

    /// Measures the last step across a silence again with `chord`, once the fixes after it have
    /// said where it really ended (`FlightInProgress.remeasureSilenceExit`,
    /// `SilenceCrossing.remeasure`). The shown distance never goes back: what the revision takes
    /// away holds it until run.
    public mutating func remeasureCrossing(chord: Double) {
        guard let difference = crossing?.remeasure(chord: chord, configuration) else { return }
        distance = max(0, distance + difference)
        show()
    }

    /// A paired footpod's reading (its total distance or its speed), in time order with the fixes.
    public mutating func footpod(_ sample: BodySample) { footpod.add(sample) }

    /// The mean of `recentSpeeds` (filled at every usable reading, emptied at a silence); nil
    /// when the last reading had no speed.
    private var heldSpeed: Double? {
        guard last?.speed != nil, !recentSpeeds.isEmpty else { return nil }
        return recentSpeeds.reduce(0, +) / Double(recentSpeeds.count)
    }

    /// The last reading under `edgeShare` of the pace before it (the upper median of the
    /// readings since the last silence): the runner was pulling up.
    private var lastReadingPulledUp: Bool {
        guard let speed = last?.speed, let pace = recentSpeeds.upperMedian else { return false }
        return speed < configuration.edgeShare * pace
    }

    private mutating func remember(_ speed: Double?) {
        guard let speed else { return }
        if recentSpeeds.count == DistanceProfile.Builder.heldSpeedSamples { recentSpeeds.removeFirst() }
        recentSpeeds.append(speed)
    }

    private mutating func show() {
        shown = max(shown, distance + (speedIsTrusted && pendingValid && !hidesPending ? pending : 0))
        display = max(display, shown)
    }

    /// Carries the distance displayed on to `time` (a tick) at the last readings' speed when no fix
    /// has come since: the display moves through a silence as the runner does, and stays put
    /// once fixes say less (it never goes back; the counted distance is not touched, and the
    /// step across the silence is bridged by the rules in `count`). Only while the speed is
    /// trusted, shown and moving, and for at most `maxCarry` seconds of silence. Between two
    /// fixes a second apart it is the second's travel, which the next fix's integral then holds.
    /// With a calibrated footpod reading all along, what it counted since the last fix is carried
    /// instead (a stop inside a tunnel stops the display). A braking reading as the signal went
    /// (under `edgeShare` of the pace before it, the step rule's judgement) says the runner
    /// stopped there, and nothing is carried: carried at the readings' mean, a runner standing
    /// at a tunnel's mouth saw the display run 115 m ahead, then freeze for 40 s of running
    /// once the fixes came back ("outage from a stop", seed 53).
    public mutating func carry(to time: Double) {
        guard speedIsTrusted, !hidesPending, let last else { return }
        let silence = time - last.time
        guard silence > 0, silence <= configuration.maxCarry else { return }
        let carried: Double
        if let pod = footpod.sinceFix(at: time) {
            carried = pod
        } else if let speed = heldSpeed, speed > 0, !lastReadingPulledUp {
            carried = speed * silence
        } else {
            return
        }
        display = max(display, shown, distance + (pendingValid ? pending : 0) + carried)
    }

    /// Spends the pending integral (or the chord) for a counted step that took `duration`
    /// seconds and went `from` one anchor `to` the next; returns the increment. `turn` is how
    /// far the heading turned (degrees) from the fix before the step to the fix ending it;
    /// `staircase` how much longer than the chord a street grid's path could be
    /// (`GapJudgement.staircase`; nil: √2).
    @discardableResult
    public mutating func count(
        chord: Double, duration: Double = .infinity, from: Coordinate? = nil, to: Coordinate? = nil,
        turn: Double? = nil, staircase: Double? = nil
    ) -> Double {
        let limit = chord * configuration.maxIntegralToChordRatio + configuration.maxIntegralSlack
        let coherent = pendingCoherent && pending >= configuration.minimumImpliedSpeed * duration
        let usable = pendingValid && (pending <= limit || coherent)
        let disagrees =
            pendingValid && pending < chord * configuration.disagreementRatio
            && chord / duration >= configuration.minimumImpliedSpeed
            && pending / duration < configuration.lyingSpeed
        var increment: Double
        defer { gapSpeeds = nil }
        let ends = from.flatMap { from in
            to.map { SpeedDistrust.Step(from: from, to: $0, chord: chord, duration: duration) }
        }
        let pod = footpod.step(at: last?.time ?? 0)
        if !pendingValid, let pod {
            // Across a silence a paired footpod read all along: the steps it counted.
            increment = pod
        } else if !pendingValid, let gap = gapSpeeds,
            let step = SilenceCrossing.step(
                across: gap, chord: chord, duration: duration, turn: turn, staircase: staircase, configuration
            )
        {
            increment = step.metres
            if let credited = step.crossing { crossing = credited }
        } else if speedIsTrusted {
            // A valid integral of 0 is the receiver saying "at rest": the step is position wander.
            increment = usable ? pending : chord
            if let switched = distrust.trusted(
                ends, integral: pending, disagrees: disagrees,
                freshSpeed: freshMovingSpeed(beforeStepOf: duration), configuration)
            {
                increment = switched
            }
        } else {
            increment = chord
            let agrees = usable && !disagrees && pending >= chord * configuration.disagreementRatio
            if distrust.distrusted(
                ends, agrees: agrees, readsStanding: pending / duration < configuration.lyingSpeed,
                configuration)
            {
                // The positions stopped marching while the speed still reads standing: the
                // receiver was right after all, and this step is the stand's wander.
                increment = usable ? pending : chord
            }
        }
        distance += increment
        discardPending()
        show()
        return increment
    }

    /// The speed of the last moving reading if it came within `freshness` of the start of a
    /// step of `duration` seconds ending now; nil otherwise (or when the duration is unknown).
    private func freshMovingSpeed(beforeStepOf duration: Double) -> Double? {
        guard let now = last?.time, duration.isFinite, let moving = lastMoving else { return nil }
        return moving.time >= now - duration - configuration.freshness ? moving.speed : nil
    }

    /// Takes the distance back to `metres` (less than now) and forgets pending travel: what was
    /// counted since a vehicle's speed began was not run (`VehicleWatch`).
    public mutating func rewind(to metres: Double) {
        crossing = nil
        distance = min(distance, max(0, metres))
        discardPending()
        shown = distance
        display = distance
    }

    /// Adds `metres`, either sign, to the counted distance: the fixes' estimate of the speeds'
    /// drift (`LiveDriftCorrection`). The shown distance never goes back: metres taken away hold
    /// it until run.
    public mutating func amend(by metres: Double) {
        guard metres.isFinite, metres != 0 else { return }
        distance = max(0, distance + metres)
        show()
    }

    /// Adds `metres` the runner ran while the flight was paused by a slip (`SlipWatch`'s
    /// auto-resume): the receiver's speeds over the running, not a chord.
    public mutating func credit(_ metres: Double) {
        guard metres.isFinite, metres > 0 else { return }
        distance += metres
        show()
    }

    /// Forgets travel since the last counted step without adding it (manual pause); after a
    /// counted step, what it spent.
    public mutating func discardPending() {
        pending = 0
        pendingValid = true
        pendingCoherent = true
    }
}
