/// Five heart-rate zones, as a runner's watch draws them: from the maximum heart rate alone
/// (each zone's lower edge a fraction of the maximum), or from the heart-rate reserve (Karvonen:
/// resting + fraction × (maximum − resting)).
public struct HeartRateZones: Sendable, Equatable {
    public enum Method: String, Sendable, Equatable, CaseIterable {
        /// Lower edges are fractions of the maximum heart rate.
        case maximum = "max"
        /// Lower edges are fractions of the reserve above the resting heart rate.
        case reserve = "reserve"
    }

    public var method: Method
    /// Beats per minute.
    public var maximum: Double
    /// Beats per minute; used by `.reserve` only.
    public var resting: Double
    /// The lower edge of zones 1…5 as fractions (of the maximum, or of the reserve), increasing.
    public var fractions: [Double]

    /// The usual five: 50, 60, 70, 80 and 90 %.
    public static let defaultFractions = [0.5, 0.6, 0.7, 0.8, 0.9]

    public init(
        method: Method = .maximum, maximum: Double, resting: Double = 60,
        fractions: [Double] = defaultFractions
    ) {
        self.method = method
        self.maximum = maximum
        self.resting = resting
        self.fractions = fractions
    }

    /// The lower edge of each zone 1…5 in beats per minute.
    public var lowerEdges: [Double] {
        fractions.map { f in
            switch method {
            case .maximum: f * maximum
            case .reserve: resting + f * (maximum - resting)
            }
        }
    }

    /// The zone (1…5) a heart rate is in; nil below zone 1's lower edge.
    public func zone(of beatsPerMinute: Double) -> Int? {
        let edges = lowerEdges
        guard let index = edges.lastIndex(where: { beatsPerMinute >= $0 }) else { return nil }
        return index + 1
    }

    /// The beats per minute a zone spans: its lower edge up to the next zone's (zone 5: the maximum).
    public func range(of zone: Int) -> ClosedRange<Double>? {
        let edges = lowerEdges
        guard zone >= 1, zone <= edges.count else { return nil }  // (no range: edges may be empty)
        let low = edges[zone - 1]
        let high = zone < edges.count ? edges[zone] : maximum
        return low...max(low, high)
    }
}
