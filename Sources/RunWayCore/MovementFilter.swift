/// Decides which fixes count as movement (SPEC "Distance, speed, pace, pause").
///
/// gpsd reports every epoch even at rest, so the engine applies the phone's 5 m
/// `distanceFilter` itself: a fix counts once it lies at least `anchorDistance` from the last
/// counted fix (the anchor). Fixes whose accuracy is poor, or that would need the runner to move
/// faster than any runner can, are rejected outright. The jump test measures against the anchor
/// over the time since the anchor, so a rejected spell heals by itself as time passes.
///
/// The flight's first anchor is provisional until a later fix agrees with it (stays inside it or
/// counts a possible step from it). A receiver's first fixes after a cold start can be stale or
/// far off, and an outlier that anchored the flight would either add its offset to the distance
/// (once the jump guard healed) or, hundreds of kilometres off, reject every fix that followed.
/// So while the anchor is provisional, two successive fixes that agree with each other (a
/// possible speed between them) but not with the anchor outvote it: the second becomes the
/// anchor, and no step is counted. Once confirmed, an anchor is never replaced this way: mid-run
/// a jump is the fix's fault, not the anchor's.
public struct MovementFilter: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Distance from the anchor at which a fix counts (the seed's distanceFilter).
        public var anchorDistance: Double = 5
        /// Fixes with a worse gpsd `eph` are rejected. gpsd reports HDOP × ~19 m for a plain
        /// NMEA receiver, so healthy fixes read 15–30 m; 50 m keeps those and drops the stale,
        /// huge `eph` that follows a no-fix spell.
        public var maxAccuracy: Double = 50
        /// Faster than any runner (the 100 m world record averages 10.4 m/s).
        public var maxSpeed: Double = 12

        public init() {}
    }

    public enum Rejection: Sendable, Equatable {
        case noFix
        case poorAccuracy(Double)
        case impossibleJump(metresPerSecond: Double)
        case timeNotAdvancing
    }

    public enum Verdict: Sendable, Equatable {
        /// The first usable fix of the flight: the route starts here.
        case first
        /// Moved `step` metres (great circle) from the previous anchor, which this fix replaces.
        case counted(step: Double)
        /// The provisional anchor was an outlier that this fix and the one before it contradict:
        /// this fix replaces it as the flight's first position, with no step counted.
        case reanchored(outlier: Fix)
        /// Usable, but still within `anchorDistance` of the anchor.
        case held(distanceFromAnchor: Double)
        case rejected(Rejection)

        public var isAccepted: Bool {
            if case .rejected = self { return false }
            return true
        }
    }

    public let configuration: Configuration
    public private(set) var anchor: Fix?
    private var lastAcceptedTime: Double?
    private var anchorConfirmed = false
    /// The latest fix rejected as a jump from a provisional anchor.
    private var contradiction: Fix?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public mutating func assess(_ fix: Fix) -> Verdict {
        guard fix.hasPosition else { return .rejected(.noFix) }
        if let accuracy = fix.horizontalAccuracy, accuracy > configuration.maxAccuracy {
            return .rejected(.poorAccuracy(accuracy))
        }
        if let last = lastAcceptedTime, fix.time <= last { return .rejected(.timeNotAdvancing) }
        guard let anchor else {
            self.anchor = fix
            lastAcceptedTime = fix.time
            return .first
        }
        let distance = Geodesy.distance(anchor.coordinate, fix.coordinate)
        if distance < configuration.anchorDistance {
            lastAcceptedTime = fix.time
            confirm()
            return .held(distanceFromAnchor: distance)
        }
        let speed = distance / (fix.time - anchor.time)
        if speed > configuration.maxSpeed {
            if !anchorConfirmed {
                if let previous = contradiction, fix.time > previous.time,
                    Geodesy.distance(previous.coordinate, fix.coordinate) / (fix.time - previous.time)
                        <= configuration.maxSpeed
                {
                    self.anchor = fix
                    lastAcceptedTime = fix.time
                    contradiction = nil
                    return .reanchored(outlier: anchor)
                }
                contradiction = fix
            }
            return .rejected(.impossibleJump(metresPerSecond: speed))
        }
        self.anchor = fix
        lastAcceptedTime = fix.time
        confirm()
        return .counted(step: distance)
    }

    private mutating func confirm() {
        anchorConfirmed = true
        contradiction = nil
    }
}
