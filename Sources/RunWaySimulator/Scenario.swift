import Foundation
import RunWayCore

/// A simulated run: the course, how the runner moves along it, and how the sensors see it.
/// Everything a test or the bench needs to know the ground truth.
public struct Scenario: Sendable {
    /// A change of target speed at a distance along the course.
    public struct SpeedLeg: Sendable {
        public var from: Double
        public var speed: Double

        public init(from: Double, speed: Double) {
            self.from = from
            self.speed = speed
        }
    }

    /// A standstill (traffic light) at a distance.
    public struct Stop: Sendable {
        public var at: Double
        public var seconds: Double

        public init(at: Double, seconds: Double) {
            self.at = at
            self.seconds = seconds
        }
    }

    /// The runner pressing a button, at flight elapsed seconds (issue 27: a PAUSE bump).
    public struct Press: Sendable {
        public enum Button: Sendable { case pause, start, resume }
        public var elapsed: Double
        public var button: Button

        public init(at elapsed: Double, _ button: Button) {
            self.elapsed = elapsed
            self.button = button
        }
    }

    /// A stretch of the course ridden in a vehicle at `speed` (issue 27: run, drive, park; a bus):
    /// no steps, and not the runner's distance or moving time in the truth.
    public struct Ride: Sendable {
        public var from: Double
        public var metres: Double
        public var speed: Double

        public init(from: Double, metres: Double, speed: Double) {
            self.from = from
            self.metres = metres
            self.speed = speed
        }

        func covers(_ s: Double) -> Bool { s >= from && s < from + metres }
    }

    /// A raised-cosine hill: climbs `height` metres and comes back down over `length` metres.
    public struct Hill: Sendable {
        public var center: Double
        public var length: Double
        public var height: Double

        public init(center: Double, length: Double, height: Double) {
            self.center = center
            self.length = length
            self.height = height
        }
    }

    /// A spell with no fix (tunnel, bridge), in seconds after ROTATE.
    public struct SignalGap: Sendable {
        public var start: Double
        public var seconds: Double

        public init(start: Double, seconds: Double) {
            self.start = start
            self.seconds = seconds
        }
    }

    public struct GPSModel: Sendable {
        public var rate: Double = 1
        /// Correlated wander per axis (m) and its time constant (s).
        public var wanderSigma: Double = 2.5
        public var wanderTau: Double = 60
        /// White position noise per axis (m).
        public var whiteSigma: Double = 0.7
        /// Doppler speed noise (m/s).
        public var speedSigma: Double = 0.1
        /// The Doppler noise's time constant (s): 0 draws it afresh each fix (white); above 0 it
        /// is a Gauss–Markov process of the same σ, as a receiver whose navigation filter smooths
        /// its velocity gives it, and its sum over a run walks √(2τ) times as far.
        public var speedTau: Double = 0
        /// gpsd-style `eph`: HDOP × 19 m with HDOP around `hdop`.
        public var hdop: Double = 1.1
        /// Multipath jumps per hour, their size (m) and length (s).
        public var multipathPerHour: Double = 6
        public var multipathSize: ClosedRange<Double> = 15...40
        public var multipathSeconds: ClosedRange<Double> = 2...6
        public var altitudeSigma: Double = 4
        /// A receiver that starts cold, its first fixes far off (nil: it starts with a good lock,
        /// as every scenario before issue 26 did).
        public var coldStart: ColdStart?
        /// Spells of degraded reception (tree cover, an urban canyon), the first matching one in
        /// force at a fix; none: open sky all along.
        public var spells: [Spell] = []

        public init() {}
    }

    /// A cold start (issue 26's tester): for tens of seconds from the receiver's first fix, every
    /// fix is hundreds of metres off while `eph` claims only tens of metres. The offset fixes agree
    /// with each other — they move with the runner, plus one offset — so no jump between them
    /// gives the error away; Doppler speed and track come from the carrier and stay true. The
    /// offset either decays to nothing over the spell (the position solution converging) or
    /// snaps away at once (a new solution once the almanac is in).
    public struct ColdStart: Sendable {
        public enum Ending: Sendable, Equatable {
            /// The offset shrinks linearly to 0 over the spell.
            case decays
            /// The full offset until the spell ends, then none.
            case snaps
        }

        /// Size of the offset (m), drawn once per run, in a direction drawn once.
        public var offset: ClosedRange<Double>
        /// How long it lasts (s) from the first fix the receiver reports, drawn once per run.
        public var seconds: ClosedRange<Double>
        public var ending: Ending
        /// What `eph` claims meanwhile (m): from the upper bound at the first fix to the lower
        /// one at the end (HDOP falling as satellites come in: HDOP 1.1–2.4 × 19 m).
        public var claimedAccuracy: ClosedRange<Double>

        /// The tester's report: a few hundred metres (200–500 m) for tens of seconds (30–90 s
        /// from the first fix, so 17–77 s into a run started at the default 10 s of preflight
        /// and 3 s of countdown), `eph` reading 20–45 m.
        public init(
            offset: ClosedRange<Double> = 200...500, seconds: ClosedRange<Double> = 30...90,
            ending: Ending = .decays, claimedAccuracy: ClosedRange<Double> = 20...45
        ) {
            self.offset = offset
            self.seconds = seconds
            self.ending = ending
            self.claimedAccuracy = claimedAccuracy
        }
    }

    /// How a receiver sees a degraded sky: an extra correlated wander on top of the open-sky one
    /// (per axis), extra white noise, an `eph` that claims far worse than the real error, and a
    /// noisier Doppler speed (still clamped at 0, so a standing runner reads ~0).
    public struct DegradedSky: Sendable {
        /// Extra wander per axis (m) and its time constant (s). It keeps moving while the runner
        /// stands still: the error is the sky's, not the runner's.
        public var wanderSigma: Double
        public var wanderTau: Double
        /// Extra white noise per axis (m).
        public var whiteSigma: Double
        /// The range `eph` reads in (m), wandering in it with a 60 s time constant.
        public var accuracy: ClosedRange<Double>
        /// Doppler speed noise (m/s), replacing the open sky's.
        public var speedSigma: Double

        public init(
            wanderSigma: Double, wanderTau: Double, whiteSigma: Double, accuracy: ClosedRange<Double>,
            speedSigma: Double
        ) {
            self.wanderSigma = wanderSigma
            self.wanderTau = wanderTau
            self.whiteSigma = whiteSigma
            self.accuracy = accuracy
            self.speedSigma = speedSigma
        }

        /// Under trees (issue 26's tester): `eph` 30–60 m while the real error is ~6 m. With the
        /// open sky's 2.5 m wander and 0.7 m white per axis, 4 m more wander and 1.5 m white make
        /// √(2.5² + 4² + 0.7² + 1.5²) ≈ 5.0 m per axis, 7 m RMS radial (6 m median); the canopy
        /// moves it faster than open sky (τ 20 s, not 60 s); Doppler σ 0.3 m/s (three times open
        /// sky's: fewer, weaker carriers).
        public static let treeCover = DegradedSky(
            wanderSigma: 4, wanderTau: 20, whiteSigma: 1.5, accuracy: 30...60, speedSigma: 0.3)

        /// Between tall buildings (the tester's stops amid urban wander): reflections make a
        /// wander of several metres that keeps drifting while the runner waits at a light —
        /// 4 m per axis with τ 30 s, with the open sky's wander and white noise, moves a standing
        /// runner's fix ~6.5 m in 20 s and ~9 m in 60 s (RMS) — while Doppler, from the direct
        /// carriers, still reads ~0 at rest (σ 0.1 m/s, clamped). `eph` 25–45 m: HDOP 1.3–2.4
        /// with half the sky hidden.
        public static let urbanCanyon = DegradedSky(
            wanderSigma: 4, wanderTau: 30, whiteSigma: 1, accuracy: 25...45, speedSigma: 0.1)
    }

    /// A spell of degraded reception, by flight elapsed seconds (negative: before ROTATE) or by
    /// the runner's distance along the course (a standing runner stays in it).
    public struct Spell: Sendable {
        public enum Span: Sendable {
            case elapsed(ClosedRange<Double>)
            case distance(ClosedRange<Double>)
        }

        public var span: Span
        public var sky: DegradedSky

        public init(_ span: Span, sky: DegradedSky) {
            self.span = span
            self.sky = sky
        }

        func contains(elapsed: Double, distance: Double) -> Bool {
            switch span {
            case .elapsed(let range): range.contains(elapsed)
            case .distance(let range): range.contains(distance)
            }
        }
    }

    public struct BarometerModel: Sendable {
        /// False: a board built without a BMP280 (the engine falls back to GPS altitude).
        public var present = true
        public var rate: Double = 1
        public var noisePascals: Double = 0.3
        /// Weather drift, Pa per hour (−100 Pa/h: falling pressure reads as a climb).
        public var driftPascalsPerHour: Double = -100
        public var seaLevelPascals: Double = 101_325
        public var courseAltitude: Double = 35
        /// Weather that changes during the run: from each leg's `from` (seconds after ROTATE, in
        /// order) the pressure drifts at its rate; before the first leg at `driftPascalsPerHour`.
        /// Empty: one rate all along (every scenario before issue 26).
        public var driftLegs: [DriftLeg] = []

        public init() {}

        /// The weather's change of sea-level pressure (Pa) from START to `seconds` after START,
        /// with ROTATE `rotateDelay` seconds after START.
        func drift(atSecondsAfterStart seconds: Double, rotateDelay: Double) -> Double {
            var pascals = 0.0
            var from = 0.0
            var rate = driftPascalsPerHour
            for leg in driftLegs {
                let start = max(from, leg.from + rotateDelay)
                if start >= seconds { break }
                pascals += rate * (start - from) / 3600
                from = start
                rate = leg.pascalsPerHour
            }
            return pascals + rate * (seconds - from) / 3600
        }
    }

    /// A change of the weather's pressure trend (Pa per hour) from `from` seconds after ROTATE.
    public struct DriftLeg: Sendable {
        public var from: Double
        public var pascalsPerHour: Double

        public init(from: Double, pascalsPerHour: Double) {
            self.from = from
            self.pascalsPerHour = pascalsPerHour
        }
    }

    public var name: String
    public var origin = Coordinate(latitude: 37.5283, longitude: 126.9327)
    /// The course as east/north metres from `origin`; it is run as a closed loop, lap after lap.
    public var course: [(east: Double, north: Double)]
    public var legs: [SpeedLeg]
    public var stops: [Stop] = []
    public var hills: [Hill] = []
    public var signalGaps: [SignalGap] = []
    public var presses: [Press] = []
    public var rides: [Ride] = []
    public var totalDistance: Double

    /// The same run, ended at `metres` (a shorter flight for a test or a bench).
    public func ending(at metres: Double) -> Scenario {
        var shorter = self
        shorter.totalDistance = metres
        return shorter
    }

    public var mission: Mission?
    /// The workout START flies (issue 27); with one, `mission` is nil.
    public var workout: Workout?
    public var gps = GPSModel()
    public var barometer = BarometerModel()
    public var heartRate = true
    /// A heart rate that follows a held effort with a lag, drift and noise (heart-rate missions);
    /// nil: the plain model every other scenario has flown with (a 20 s lag toward 95 + 22 × speed).
    public var heartRateModel: HeartRateModel?
    public var cadence = true
    /// A paired footpod (RSC speed and total distance); nil: none, as every older scenario.
    public var footpod: FootpodModel?
    /// GPS time of the START press (2026-10-03T07:00:00Z by default).
    public var startPress: Double = 1_791_010_800
    /// GPS runs this long before START (lock before the run).
    public var preflightSeconds: Double = 10
    /// END is pressed this long after the runner stops at the finish.
    public var finishWait: Double = 5
    public var acceleration: Double = 1.5
    public var deceleration: Double = 2
    public var seed: UInt64 = 1

    /// The scenario as `runway-bench` flies its `n`th seed (1, 2, …): each bench varies the
    /// scenario's own seed so, and a test naming a seed flies the bench's run of it.
    public func seeded(_ n: Int) -> Scenario {
        var scenario = self
        scenario.seed = UInt64(n) &* 7919 &+ seed
        return scenario
    }

    public init(
        name: String, course: [(east: Double, north: Double)], legs: [SpeedLeg], totalDistance: Double
    ) {
        self.name = name
        self.course = course
        self.legs = legs
        self.totalDistance = totalDistance
    }

    /// Target speed at distance `s`.
    func targetSpeed(at s: Double) -> Double {
        if let ride = rides.first(where: { $0.covers(s) }) { return ride.speed }
        var speed = legs.first?.speed ?? 3
        for leg in legs where leg.from <= s { speed = leg.speed }
        return speed
    }

    /// Terrain height above the course's base at distance `s`.
    func elevation(at s: Double) -> Double {
        var z = 0.0
        for hill in hills where abs(s - hill.center) < hill.length / 2 {
            let phase = (s - hill.center + hill.length / 2) / hill.length
            z += hill.height * (1 - Foundation.cos(2 * .pi * phase)) / 2
        }
        return z
    }

    public var rotateTime: Double { startPress + 3 }
}

/// A footpod as the runner wears it: it counts the steps, reads each second's speed with a few
/// per cent of noise, and is not calibrated to this runner's stride (`scaleError`: a pod reads
/// its stride model's metres, 2–5 % off until a runner calibrates it).
public struct FootpodModel: Sendable, Equatable {
    /// The pod's metres per true metre is 1 + a value drawn from this range, once per run.
    public var scaleError: ClosedRange<Double> = -0.05...0.05
    /// Each second's speed noise, as a share of the speed.
    public var speedNoise = 0.03

    public init() {}
}
