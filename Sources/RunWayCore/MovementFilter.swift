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
///
/// But two matching bad fixes confirm each other (a cold start's first fixes, a kilometre off),
/// and the jump guard then heals by time: the step that heals it would carry the whole offset.
/// So the fixes rejected as jumps are followed as a detour: while they agree with each other (a
/// possible speed between them), their own path (with the same 5 m filter) is kept, and the
/// step that heals the guard is the shorter of its chord and that path. A multipath excursion's
/// path out and back is longer than the chord, so the chord stays; a wrong anchor's chord is
/// longer than the path the runner really ran, which is what counts.
public struct MovementFilter: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Distance from the anchor at which a fix counts (the seed's distanceFilter).
        public var anchorDistance: Double = 5
        /// Fixes with a worse gpsd `eph` are rejected. gpsd reports HDOP × ~19 m for a plain
        /// NMEA receiver, so healthy fixes read 15–30 m; 50 m keeps those and drops the stale,
        /// huge `eph` that follows a no-fix spell.
        public var maxAccuracy: Double = 50
        /// …the floor of a limit that follows the receiver's typical `eph` (`AccuracyGate`).
        public var accuracyRatio: Double = 1.5
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
    private var accuracyGate: AccuracyGate
    private var anchorConfirmed = false
    /// The latest fix rejected as a jump from a provisional anchor.
    private var contradiction: Fix?
    /// Fixes rejected as jumps from a confirmed anchor, while they agree with each other: their
    /// own anchor, their latest fix, and the path counted between them.
    private var detour: (anchor: Fix, last: Fix, path: Double)?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        accuracyGate = AccuracyGate()
        accuracyGate.floor = configuration.maxAccuracy
        accuracyGate.ratio = configuration.accuracyRatio
    }

    public mutating func assess(_ fix: Fix) -> Verdict {
        let verdict = judge(fix)
        // Every fix's `eph` teaches the gate what the receiver achieves, a rejected one at most
        // twice the limit: a run that starts under trees reading 50–60 m was never let in when
        // only accepted fixes counted (its first 40 s uncounted), while a stale spike after a
        // silence still moves the typical only a little.
        if let accuracy = fix.horizontalAccuracy {
            accuracyGate.record(verdict.isAccepted ? accuracy : min(accuracy, 2 * accuracyGate.limit))
        }
        return verdict
    }

    private mutating func judge(_ fix: Fix) -> Verdict {
        guard fix.hasPosition else { return .rejected(.noFix) }
        if let accuracy = fix.horizontalAccuracy, !accuracyGate.accepts(accuracy) {
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
            detour = nil
            return .held(distanceFromAnchor: distance)
        }
        let speed = Self.impliedSpeed(
            distance, over: fix.time - anchor.time, slack: configuration.anchorDistance)
        if speed > configuration.maxSpeed {
            if anchorConfirmed { follow(fix) }
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
        var step = distance
        if let detour, possible(from: detour.last, to: fix) {
            step = min(step, detour.path + Geodesy.distance(detour.anchor.coordinate, fix.coordinate))
        }
        detour = nil
        self.anchor = fix
        lastAcceptedTime = fix.time
        confirm()
        return .counted(step: step)
    }

    private func possible(from a: Fix, to b: Fix) -> Bool {
        b.time > a.time
            && Self.impliedSpeed(
                Geodesy.distance(a.coordinate, b.coordinate), over: b.time - a.time,
                slack: configuration.anchorDistance) <= configuration.maxSpeed
    }

    /// The speed a step implies once the positions' own noise (the anchor's radius) is allowed
    /// for. At 10 Hz a fix 0.1 s after the anchor and 5 m off it — noise — "went" 50 m/s: runs of
    /// such fixes were rejected as jumps, and the step that healed the guard counted its chord,
    /// not the speed integral, losing 11 m on one seed ("10 Hz GPS": 1.08 % at a kilometre
    /// mark). A multipath jump of 30 m in a second, or a cold start's hundreds, still is one.
    static func impliedSpeed(_ distance: Double, over seconds: Double, slack: Double) -> Double {
        max(0, distance - slack) / seconds
    }

    /// A fix rejected as a jump from a confirmed anchor: it continues the detour, or begins one.
    private mutating func follow(_ fix: Fix) {
        guard var current = detour, possible(from: current.last, to: fix) else {
            detour = (fix, fix, 0)
            return
        }
        let step = Geodesy.distance(current.anchor.coordinate, fix.coordinate)
        if step >= configuration.anchorDistance {
            current.anchor = fix
            current.path += step
        }
        current.last = fix
        detour = current
    }

    private mutating func confirm() {
        anchorConfirmed = true
        contradiction = nil
    }
}
