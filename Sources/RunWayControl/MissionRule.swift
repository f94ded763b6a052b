import RunWayCore

/// The one rule for a mission's targets, wherever a runner writes them: `runway start
/// --mission pace=5:30,deviation=15s,distance=5km`, the configuration's `"mission"` and the
/// control socket's `start`. Each reader used to have its own: the option took `"5km"` and
/// `"15s"`, the configuration only JSON numbers. The rule is now the union of both, so no
/// script or file that worked before is refused:
///
/// - pace: `M:SS` per km (text only: a bare number is ambiguous between minutes and seconds);
/// - deviation: seconds per km, a JSON number or decimal text with an optional `s` (`15`, `15s`);
/// - distance: a JSON number of metres, or decimal text in metres or kilometres (`5000`,
///   `5000m`, `5km`, `5.2KM`);
/// - time (instead of distance), moving time: a JSON number of seconds, or text as a clock
///   (`30:00`, `1:05:00`) or with a unit (`1800s`, `30min`, `1.5h`) — a bare number in text is
///   refused, as minutes or seconds would both be a guess;
/// - heart rate (instead of, or with, pace): `hr=140-155` bpm (JSON `"heart_rate": {"low": 140,
///   "high": 155}`), or `zone=2` (JSON `"zone": 2`), one of the five zones of the configured
///   maximum / resting heart rate, resolved when the mission is made.
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

    /// Seconds: a number, or `30:00` (M:SS), `1:05:00` (H:MM:SS), `1800s`, `30min`, `1.5h`.
    public static func duration(_ given: Given) -> Double? {
        switch given {
        case .number(let n): return n
        case .text(let text):
            let lower = text.lowercased()
            if lower.contains(":") { return clock(lower) }
            for (unit, scale) in [("min", 60.0), ("s", 1), ("h", 3600)] where lower.hasSuffix(unit) {
                return DecimalText.number(lower.dropLast(unit.count)).map { $0 * scale }
            }
            return nil
        }
    }

    /// `M:SS` or `H:MM:SS` (the first field one or two ASCII digits, the others two, 00–59) as
    /// seconds; nil for anything else.
    public static func clock(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), (1...2).contains(parts[0].count),
            parts.dropFirst().allSatisfy({ $0.count == 2 }),
            parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } })
        else { return nil }
        let values = parts.map { $0.utf8.reduce(0) { $0 * 10 + Int($1 - 48) } }
        guard values.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        return Double(values.reduce(0) { $0 * 60 + $1 })
    }

    /// `LOW-HIGH` in whole or decimal bpm (`140-155`); nil for anything else. The band's range
    /// and width are `Mission`'s check.
    public static func heartRate(_ text: String) -> (low: Double, high: Double)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = DecimalText.number(parts[0]),
            let high = DecimalText.number(parts[1])
        else { return nil }
        return (low, high)
    }

    /// A zone number 1…5: a whole JSON number or its text.
    public static func zone(_ given: Given) -> Int? {
        switch given {
        case .number(let n): n == n.rounded() && (1...5).contains(n) ? Int(n) : nil
        case .text(let text): DecimalText.whole(text).flatMap { (1...5).contains($0) ? $0 : nil }
        }
    }

    /// The deviation a mission gets when none is given, s/km.
    public static let defaultDeviation = 15.0
}
