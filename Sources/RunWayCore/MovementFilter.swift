/// Decides which fixes count as movement (SPEC "Distance, speed, pace, pause").
///
/// gpsd reports every epoch even at rest, so the engine applies the phone's 5 m
/// `distanceFilter` itself: a fix counts once it lies at least `anchorDistance` from the last
/// counted fix (the anchor). Fixes whose accuracy is poor, or that would need the runner to move
/// faster than any runner can, are rejected outright. The jump test measures against the anchor
/// over the time since the anchor, so a rejected spell heals by itself as time passes.
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
            return .held(distanceFromAnchor: distance)
        }
        let speed = distance / (fix.time - anchor.time)
        if speed > configuration.maxSpeed { return .rejected(.impossibleJump(metresPerSecond: speed)) }
        self.anchor = fix
        lastAcceptedTime = fix.time
        return .counted(step: distance)
    }
}
