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
        /// gpsd-style `eph`: HDOP × 19 m with HDOP around `hdop`.
        public var hdop: Double = 1.1
        /// Multipath jumps per hour, their size (m) and length (s).
        public var multipathPerHour: Double = 6
        public var multipathSize: ClosedRange<Double> = 15...40
        public var multipathSeconds: ClosedRange<Double> = 2...6
        public var altitudeSigma: Double = 4

        public init() {}
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

        public init() {}
    }

    public var name: String
    public var origin = Coordinate(latitude: 37.5283, longitude: 126.9327)
    /// The course as east/north metres from `origin`; it is run as a closed loop, lap after lap.
    public var course: [(east: Double, north: Double)]
    public var legs: [SpeedLeg]
    public var stops: [Stop] = []
    public var hills: [Hill] = []
    public var signalGaps: [SignalGap] = []
    public var totalDistance: Double

    /// The same run, ended at `metres` (a shorter flight for a test or a bench).
    public func ending(at metres: Double) -> Scenario {
        var shorter = self
        shorter.totalDistance = metres
        return shorter
    }

    public var mission: Mission?
    public var gps = GPSModel()
    public var barometer = BarometerModel()
    public var heartRate = true
    /// A heart rate that follows a held effort with a lag, drift and noise (heart-rate missions);
    /// nil: the plain model every other scenario has flown with (a 20 s lag toward 95 + 22 × speed).
    public var heartRateModel: HeartRateModel?
    public var cadence = true
    /// GPS time of the START press (2026-10-03T07:00:00Z by default).
    public var startPress: Double = 1_791_010_800
    /// GPS runs this long before START (lock before the run).
    public var preflightSeconds: Double = 10
    /// END is pressed this long after the runner stops at the finish.
    public var finishWait: Double = 5
    public var acceleration: Double = 1.5
    public var deceleration: Double = 2
    public var seed: UInt64 = 1

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
