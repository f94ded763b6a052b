/// Pressure over the last hours, as a barograph draws it, for the checklist's WEATHER line
/// (SPEC "Takeoff and the checklist": the board has no network, but it has a barometer).
/// Readings are kept as 5-minute means over the last 6 hours (at most 73 of them, however long
/// the board runs); the tendency is the least-squares slope over the last 3 hours, said per
/// 3 hours as a barograph's reader would: under 1 hPa steady, from 3.6 hPa fast (the
/// meteorologists' "rapidly").
public struct Barograph: Sendable, Equatable {
    public enum Tendency: String, Sendable {
        case steady
        case rising
        case falling
        case risingFast = "rising fast"
        case fallingFast = "falling fast"
    }

    /// What the barograph says now.
    public struct Reading: Sendable, Equatable {
        public var tendency: Tendency
        /// Pascals per 3 hours (positive: rising).
        public var changePer3h: Double
        /// How many seconds of readings it rests on.
        public var span: Double

        public init(tendency: Tendency, changePer3h: Double, span: Double) {
            self.tendency = tendency
            self.changePer3h = changePer3h
            self.span = span
        }
    }

    public static let bucketSeconds = 300.0
    public static let keptSeconds = 6 * 3600.0
    public static let windowSeconds = 3 * 3600.0
    /// Less than an hour of readings says nothing about the weather.
    public static let neededSeconds = 3600.0
    static let steadyBelow = 100.0
    static let fastFrom = 360.0

    /// (mean time on the monotonic clock, mean pascals) of each 5 minutes, oldest first.
    public private(set) var points: [(seconds: Double, pascals: Double)] = []
    private var bucket: (index: Int, seconds: Double, sum: Double, count: Int)?

    public init() {}

    public static func == (a: Barograph, b: Barograph) -> Bool {
        a.points.elementsEqual(b.points) { $0 == $1 } && a.bucket?.index == b.bucket?.index
    }

    /// One reading at `seconds` on the monotonic clock. A reading outside 30–110 kPa is no air
    /// pressure a runner stands in, and is left out.
    public mutating func record(pascals: Double, at seconds: Double) {
        guard pascals.isFinite, (30_000...110_000).contains(pascals), seconds.isFinite else { return }
        let index = Int((seconds / Self.bucketSeconds).rounded(.down))
        if let open = bucket, open.index == index {
            bucket = (index, open.seconds + seconds, open.sum + pascals, open.count + 1)
            return
        }
        if let open = bucket, index < open.index { return }  // the clock does not go back
        closeBucket()
        bucket = (index, seconds, pascals, 1)
        points.removeAll { $0.seconds < seconds - Self.keptSeconds }
    }

    /// Forgets everything: the board was carried somewhere else (a flight began), and what was
    /// before says nothing about the weather here.
    public mutating func reset() {
        points.removeAll()
        bucket = nil
    }

    /// The tendency at `now`, or nil with less than an hour of readings.
    public func reading(at now: Double) -> Reading? {
        var all = points
        if let open = bucket { all.append(Self.mean(open)) }
        let recent = all.filter { $0.seconds >= now - Self.windowSeconds }
        guard let first = recent.first, let last = recent.last,
            last.seconds - first.seconds >= Self.neededSeconds
        else { return nil }
        let n = Double(recent.count)
        let meanT = recent.reduce(0) { $0 + $1.seconds } / n
        let meanP = recent.reduce(0) { $0 + $1.pascals } / n
        var num = 0.0
        var den = 0.0
        for point in recent {
            num += (point.seconds - meanT) * (point.pascals - meanP)
            den += (point.seconds - meanT) * (point.seconds - meanT)
        }
        let change = den > 0 ? num / den * Self.windowSeconds : 0
        let tendency: Tendency
        switch change {
        case ..<(-Self.fastFrom): tendency = .fallingFast
        case ..<(-Self.steadyBelow): tendency = .falling
        case ..<Self.steadyBelow: tendency = .steady
        case ..<Self.fastFrom: tendency = .rising
        default: tendency = .risingFast
        }
        return Reading(tendency: tendency, changePer3h: change, span: last.seconds - first.seconds)
    }

    /// The newest reading's pressure.
    public var latest: Double? {
        bucket.map { $0.sum / Double($0.count) } ?? points.last?.pascals
    }

    private mutating func closeBucket() {
        guard let open = bucket else { return }
        points.append(Self.mean(open))
        bucket = nil
    }

    private static func mean(_ b: (index: Int, seconds: Double, sum: Double, count: Int)) -> (
        seconds: Double, pascals: Double
    ) {
        (b.seconds / Double(b.count), b.sum / Double(b.count))
    }
}
