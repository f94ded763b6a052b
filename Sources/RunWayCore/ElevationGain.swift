/// Metres climbed, counting rises and never falls (SPEC "Altitude and elevation gain").
///
/// The seed summed every positive delta, so barometric noise on flat ground added gain.
/// Two things stand between noise and the total here:
///
/// 1. **Weather drift.** The air pressure moves ~1 hPa an hour (≈ 8 m of apparent altitude), far
///    slower than any hill a runner climbs: a 1 % grade at 3 m/s is 0.03 m/s. Over a `window`
///    centred on each sample (`lookAhead` of it after the sample: the rule judges each sample
///    that much later), a vertical rate below `levelRate` is taken as level ground, and what the
///    altitude did in that time is booked as drift, not terrain. Grades gentler than `levelRate`
///    at the runner's speed count as level.
/// 2. **Hysteresis.** On the drift-corrected altitude, a climb counts once it rises `hysteresis`
///    metres above the lowest point since the last peak, and then counts in full; a fall of the
///    same size re-arms it. Wobbles smaller than the threshold never count.
///
/// The readout and the FDR show `terrainAltitude`, so a flat run does not appear to climb 8 m
/// an hour while the weather changes.
///
/// The default thresholds come from the bench's flat and hilly courses (`make bench`), with
/// barometer noise of 0.3 Pa RMS and a 1 hPa/h drift.
public struct ElevationGain: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var window: Double = 10
        /// How much of `window` lies after the sample it judges (the rest before it). A window
        /// that ended at the sample found a hill's crest and trough level only once past them,
        /// while the runner was already descending or climbing at 2–4 cm/s, and booked that as
        /// drift: twelve slow hills (550 m foot to foot, 6–14 m) lost 3.3 m of their 118 m
        /// (−2.8 %, every seed) with no weather at all. Centred, the level part is the crest
        /// itself, where the altitude hardly moves. The counted total is provisional for this
        /// long (the samples not yet judged count as terrain).
        public var lookAhead: Double = 5
        public var levelRate: Double = 0.012
        public var hysteresis: Double = 1
        /// Weather keeps drifting while the runner climbs: the drift rate learnt on level ground
        /// (an average over this many seconds of it) is booked during climbs and descents too.
        /// Without it the hilly 10 km loop ended 3.3 m above its start; 0 turns it off.
        public var driftRateSeconds: Double = 600

        public init() {}

        /// For GPS altitude (`GPSAltitudeFilter`): its wander (σ 4 m, τ 120 s in the simulator)
        /// moves metres a minute, so a climb counts only past 8 m, and changes slower than
        /// 0.04 m/s over 60 s are booked as wander. Chosen on flat 5 km, hilly 10 km and the demo
        /// (10 seeds each, no barometer): hysteresis 4 m counted 24 m on the flat; a level rate of
        /// 0.08 m/s cut the hills by a quarter (their tops and bottoms are slow); 8 m and
        /// 0.04 m/s left flat +7 m (worst 19), hilly −11 m of 114 (worst 23), demo 0 (worst 7).
        /// Its window ends at the sample (half a minute's delay would hold the gain back).
        public static var gps: Configuration {
            var configuration = Configuration()
            configuration.window = 60
            configuration.lookAhead = 0
            configuration.levelRate = 0.04
            configuration.hysteresis = 8
            // GPS wander has no lasting rate to carry over a climb.
            configuration.driftRateSeconds = 0
            return configuration
        }
    }

    /// Climbs and descents counted on the drift-corrected altitude, with their hysteresis.
    struct Counter: Sendable {
        let hysteresis: Double
        var total: Double = 0
        var loss: Double = 0
        var minimum: Double?
        var maximum: Double?
        var reference: Double?
        var climbing = false
        var lossReference: Double?
        var descending = false

        /// A climb counts once it rises `hysteresis` above the lowest point since the last peak,
        /// then in full; a fall of the same size re-arms it. Descents mirrored.
        mutating func count(_ corrected: Double) {
            minimum = min(minimum ?? corrected, corrected)
            maximum = max(maximum ?? corrected, corrected)
            let up = reference ?? corrected
            if climbing {
                if corrected > up {
                    total += corrected - up
                    reference = corrected
                } else if corrected < up - hysteresis {
                    climbing = false
                    reference = corrected
                }
            } else if corrected < up {
                reference = corrected
            } else if corrected > up + hysteresis {
                total += corrected - up
                reference = corrected
                climbing = true
            } else {
                reference = up
            }
            let down = lossReference ?? corrected
            if descending {
                if corrected < down {
                    loss += down - corrected
                    lossReference = corrected
                } else if corrected > down + hysteresis {
                    descending = false
                    lossReference = corrected
                }
            } else if corrected > down {
                lossReference = corrected
            } else if corrected < down - hysteresis {
                loss += down - corrected
                lossReference = corrected
                descending = true
            } else {
                lossReference = down
            }
        }
    }

    public let configuration: Configuration
    /// The samples judged so far, counted.
    private var counted: Counter
    /// The drift booked so far (through the last judged sample), metres.
    public private(set) var drift: Double = 0
    /// The weather's drift rate (m/s) learnt on level ground: the mean of its rates, the older
    /// weighing less over `driftRateSeconds` of level ground, from the first of it. The average
    /// used to start at 0 (weight 1 on no weather), which a run with little level ground never
    /// outgrew: its rate stayed a fraction of the weather's, and the rest was counted as climb.
    /// 10 seeds each, the weather at −300 / +300 Pa/h, the saved flight's gain (median): short
    /// hills +4.6 / −5.0 % → +2.2 / −3.0 %, hilly 10 km +1.0 / −1.2 % → +0.1 / −0.3 %. Rolling
    /// hills with no level ground between them hardly move, +6.5 / −6.8 % → +4.9 / −6.5 % (and
    /// −0.3 → −1.0 % with no weather): only crests and troughs pass for level there, and the
    /// slopes a level window lets in are the ones that cancel the weather, so it learns little
    /// of it. Judging level around the learnt rate instead of 0 took short hills to −0.7 % in
    /// any weather, but on rolling hills a crest's slopes are as likely either way, so any rate
    /// held itself up: −8 % at worst, not kept.
    private var driftRate: Double { driftWeight > 0 ? driftSum / driftWeight : 0 }
    /// The weighted sum of level rates and of their weights (each `dt / driftRateSeconds`, the
    /// older decaying by the same).
    private var driftSum = 0.0
    private var driftWeight = 0.0
    /// Samples from a `window` before the next one to judge (at `next`) to the latest, from
    /// `head`.
    private var history: [(time: Double, altitude: Double)] = []
    private var head = 0
    private var next = 0
    /// The last judged sample.
    private var lastJudged: (time: Double, altitude: Double)?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        counted = Counter(hysteresis: configuration.hysteresis)
    }

    /// Total metres climbed (the samples not yet judged counted as terrain), never less than
    /// it has read: a sample counted at once and judged level afterwards takes back what it
    /// rose (centimetres: under `levelRate` × `lookAhead`), and a total that went back would
    /// make the splits' gains (each its end's total less its start's, at least 0) add up to
    /// more than the run's (SPEC "Total elevation gain = Σ split gains").
    public private(set) var total: Double = 0
    /// Total metres descended, counted as climbs are (the same hysteresis, mirrored), never
    /// going back either.
    public private(set) var loss: Double = 0
    /// The lowest and highest terrain altitude so far (relative to the start).
    public var minimum: Double? { projected.minimum }
    public var maximum: Double? { projected.maximum }

    /// The latest altitude with the booked drift taken out: what the terrain did since ROTATE.
    public var terrainAltitude: Double? { history.last.map(projectedTerrain) }

    /// A sample not yet judged with the drift booked so far and, since the last judged sample,
    /// the drift rate learnt taken out.
    private func projectedTerrain(_ sample: (time: Double, altitude: Double)) -> Double {
        sample.altitude - drift - driftRate * max(0, sample.time - (lastJudged?.time ?? sample.time))
    }

    /// The counter with the samples not yet judged counted as terrain.
    private var projected: Counter {
        var counter = counted
        for index in next..<history.count { counter.count(projectedTerrain(history[index])) }
        return counter
    }

    /// Feeds a smoothed altitude sample (in time order).
    public mutating func add(time: Double, altitude: Double) {
        history.append((time, altitude))
        while next < history.count, history[next].time <= time - configuration.lookAhead {
            judge(next)
            next += 1
        }
        // Keep a window's worth before the next sample to judge.
        let keepFrom = (next < history.count ? history[next].time : time) - configuration.window
        while head < next, head + 1 < history.count, history[head + 1].time <= keepFrom { head += 1 }
        if head > 256 {
            history.removeFirst(head)
            next -= head
            head = 0
        }
        let counter = projected
        total = max(total, counter.total)
        loss = max(loss, counter.loss)
    }

    /// Judges sample `index`: level ground (its altitude change booked as drift) or terrain,
    /// by the rate over the window around it, then counts it.
    private mutating func judge(_ index: Int) {
        let sample = history[index]
        let before = configuration.window - configuration.lookAhead
        // From the last sample a `before` or more back (the earliest while there is none).
        var first = head
        while first < index, history[first + 1].time <= sample.time - before { first += 1 }
        var last = index
        while last + 1 < history.count, history[last + 1].time <= sample.time + configuration.lookAhead {
            last += 1
        }
        let span = history[last].time - history[first].time
        let rate = span > 0 ? (history[last].altitude - history[first].altitude) / span : 0
        if let previous = lastJudged {
            let dt = max(0, sample.time - previous.time)
            if span < configuration.window / 2 || abs(rate) < configuration.levelRate {
                drift += sample.altitude - previous.altitude
                if configuration.driftRateSeconds > 0, span >= configuration.window / 2, dt > 0 {
                    let alpha = min(1, dt / configuration.driftRateSeconds)
                    driftSum += (rate - driftSum) * alpha
                    driftWeight += (1 - driftWeight) * alpha
                }
            } else {
                drift += driftRate * dt
            }
        }
        lastJudged = sample
        counted.count(sample.altitude - drift)
    }
}
