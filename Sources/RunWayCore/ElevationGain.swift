/// Metres climbed, counting rises and never falls (SPEC "Altitude and elevation gain").
///
/// The seed summed every positive delta, so barometric noise on flat ground added gain.
/// Two things stand between noise and the total here:
///
/// 1. **Weather drift.** The air pressure moves ~1 hPa an hour (≈ 8 m of apparent altitude), far
///    slower than any hill a runner climbs: a 1 % grade at 3 m/s is 0.03 m/s. Over a sliding
///    `window`, a vertical rate below `levelRate` is taken as level ground, and what the altitude
///    did in that time is booked as drift, not terrain. Grades gentler than `levelRate` at the
///    runner's speed count as level.
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
        public var levelRate: Double = 0.012
        public var hysteresis: Double = 1
        /// Weather keeps drifting while the runner climbs: the drift rate learnt on level ground
        /// (an average over this many seconds) is booked during climbs and descents too. Without
        /// it the hilly 10 km loop ended 3.3 m above its start; 0 turns it off.
        public var driftRateSeconds: Double = 600

        public init() {}

        /// For GPS altitude (`GPSAltitudeFilter`): its wander (σ 4 m, τ 120 s in the simulator)
        /// moves metres a minute, so a climb counts only past 8 m, and changes slower than
        /// 0.04 m/s over 60 s are booked as wander. Chosen on flat 5 km, hilly 10 km and the demo
        /// (10 seeds each, no barometer): hysteresis 4 m counted 24 m on the flat; a level rate of
        /// 0.08 m/s cut the hills by a quarter (their tops and bottoms are slow); 8 m and
        /// 0.04 m/s left flat +7 m (worst 19), hilly −11 m of 114 (worst 23), demo 0 (worst 7).
        public static var gps: Configuration {
            var configuration = Configuration()
            configuration.window = 60
            configuration.levelRate = 0.04
            configuration.hysteresis = 8
            // GPS wander has no lasting rate to carry over a climb.
            configuration.driftRateSeconds = 0
            return configuration
        }
    }

    public let configuration: Configuration
    /// Total metres climbed.
    public private(set) var total: Double = 0
    /// Total metres descended, counted as climbs are (the same hysteresis, mirrored).
    public private(set) var loss: Double = 0
    /// The lowest and highest terrain altitude so far (relative to the start).
    public private(set) var minimum: Double?
    public private(set) var maximum: Double?
    private var descending = false
    private var lossReference: Double = 0
    /// The drift booked so far, metres.
    public private(set) var drift: Double = 0
    /// The latest altitude with the booked drift taken out: what the terrain did since ROTATE.
    public private(set) var terrainAltitude: Double?
    private var history: [(time: Double, altitude: Double)] = []
    private var head = 0
    private var last: Double?
    private var reference: Double = 0
    private var climbing = false
    /// The weather's drift rate (m/s) learnt on level ground.
    private var driftRate: Double = 0
    private var lastTime: Double?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Feeds a smoothed altitude sample.
    public mutating func add(time: Double, altitude: Double) {
        history.append((time, altitude))
        while head < history.count - 1, time - history[head + 1].time >= configuration.window {
            head += 1
        }
        if head > 256 {
            history.removeFirst(head)
            head = 0
        }
        let dt = lastTime.map { max(0, time - $0) } ?? 0
        lastTime = time
        guard let previous = last else {
            last = altitude
            reference = altitude
            lossReference = altitude
            terrainAltitude = altitude
            minimum = altitude
            maximum = altitude
            return
        }
        last = altitude
        let oldest = history[head]
        let span = time - oldest.time
        let rate = span > 0 ? (altitude - oldest.altitude) / span : 0
        if span < configuration.window / 2 || abs(rate) < configuration.levelRate {
            drift += altitude - previous
            if configuration.driftRateSeconds > 0, span >= configuration.window / 2, dt > 0 {
                driftRate += (rate - driftRate) * min(1, dt / configuration.driftRateSeconds)
            }
        } else {
            drift += driftRate * dt
        }
        let corrected = altitude - drift
        terrainAltitude = corrected
        minimum = min(minimum ?? corrected, corrected)
        maximum = max(maximum ?? corrected, corrected)
        countLoss(corrected)
        if climbing {
            if corrected > reference {
                total += corrected - reference
                reference = corrected
            } else if corrected < reference - configuration.hysteresis {
                climbing = false
                reference = corrected
            }
        } else if corrected < reference {
            reference = corrected
        } else if corrected > reference + configuration.hysteresis {
            total += corrected - reference
            reference = corrected
            climbing = true
        }
    }

    /// Descents, mirrored from climbs: a fall counts once it is `hysteresis` below the highest
    /// point since the last trough, then in full.
    private mutating func countLoss(_ corrected: Double) {
        if descending {
            if corrected < lossReference {
                loss += lossReference - corrected
                lossReference = corrected
            } else if corrected > lossReference + configuration.hysteresis {
                descending = false
                lossReference = corrected
            }
        } else if corrected > lossReference {
            lossReference = corrected
        } else if corrected < lossReference - configuration.hysteresis {
            loss += lossReference - corrected
            lossReference = corrected
            descending = true
        }
    }
}
