/// The unit a runner counts in (issue 27's settings): splits, callouts and the summary follow it;
/// the logbook, the JSON and the files stay in metres and seconds per kilometre.
public enum DistanceUnit: String, Sendable, Equatable, CaseIterable {
    case kilometre = "km"
    case mile = "mi"

    /// Metres in one.
    public var metres: Double {
        switch self {
        case .kilometre: 1000
        case .mile: 1609.344
        }
    }

    /// A pace in seconds per kilometre as seconds per this unit.
    public func pace(_ secondsPerKilometre: Double) -> Double { secondsPerKilometre * metres / 1000 }
}
