import RunWayCore

/// The one rule for a mission's three targets, wherever a runner writes them: `runway start
/// --mission pace=5:30,deviation=15s,distance=5km`, the configuration's `"mission"` and the
/// control socket's `start`. Each reader used to have its own: the option took `"5km"` and
/// `"15s"`, the configuration only JSON numbers. The rule is now the union of both, so no
/// script or file that worked before is refused:
///
/// - pace: `M:SS` per km (text only: a bare number is ambiguous between minutes and seconds);
/// - deviation: seconds per km, a JSON number or decimal text with an optional `s` (`15`, `15s`);
/// - distance: a JSON number of metres, or decimal text in metres or kilometres (`5000`,
///   `5000m`, `5km`, `5.2KM`).
///
/// The ranges are the mission's own (`Mission.paceRange` etc.); the readers word the refusal.
public enum MissionRule {
    /// A target as written: text (the option, or a JSON string) or a JSON number.
    public enum Given: Sendable, Equatable {
        case text(String)
        case number(Double)

        /// A JSON string or number; nil for anything else (true, null, a list).
        public init?(_ value: JSONValue) {
            switch value {
            case .string(let s): self = .text(s)
            case .number(let n): self = .number(n)
            default: return nil
            }
        }
    }

    /// Seconds per km from `M:SS`; nil for anything else (the range is checked by `Mission`).
    public static func pace(_ given: Given) -> Double? {
        guard case .text(let text) = given else { return nil }
        return Mission.pace(parsing: text)
    }

    /// Seconds per km: a number, or `15` / `15s`.
    public static func deviation(_ given: Given) -> Double? {
        switch given {
        case .number(let n): return n
        case .text(let text):
            return DecimalText.number(text.hasSuffix("s") ? text.dropLast() : Substring(text))
        }
    }

    /// Metres: a number, or `5000`, `5000m`, `5km`, `5.2km` (the unit in any case).
    public static func distance(_ given: Given) -> Double? {
        switch given {
        case .number(let n): return n
        case .text(let text):
            let lower = text.lowercased()
            if lower.hasSuffix("km") { return DecimalText.number(lower.dropLast(2)).map { $0 * 1000 } }
            if lower.hasSuffix("m") { return DecimalText.number(lower.dropLast()) }
            return DecimalText.number(lower)
        }
    }

    /// The deviation a mission gets when none is given, s/km.
    public static let defaultDeviation = 15.0
}
