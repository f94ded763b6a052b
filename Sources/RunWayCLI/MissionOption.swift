import RunWayCore

/// `--mission pace=5:30,deviation=15,distance=5000`
public enum MissionOption {
    public static func parse(_ text: String) throws(CLIError) -> Mission {
        var pace: Double?
        var deviation: Double?
        var distance: Double?
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map {
                String($0).trimmingCharacters(in: .whitespaces)
            }
            guard pair.count == 2 else {
                throw .usage(
                    "--mission: \"\(part)\" is not key=value (e.g. pace=5:30,deviation=15,distance=5000)")
            }
            switch pair[0] {
            case "pace":
                pace = parsePace(pair[1])
                if pace == nil {
                    throw .usage("--mission: pace \"\(pair[1])\" is not min:sec per km (e.g. 5:30)")
                }
            case "deviation":
                deviation = Double(pair[1].hasSuffix("s") ? String(pair[1].dropLast()) : pair[1])
                if deviation.map({ !$0.isFinite || $0 < 0 }) ?? true {
                    throw .usage("--mission: deviation \"\(pair[1])\" is not a number of seconds per km")
                }
            case "distance":
                distance = parseDistance(pair[1])
                if distance == nil {
                    throw .usage("--mission: distance \"\(pair[1])\" is not metres (e.g. 5000 or 5km)")
                }
            default:
                throw .usage("--mission: unknown key \"\(pair[0])\" (pace, deviation, distance)")
            }
        }
        guard let pace, let distance else {
            throw .usage("--mission needs pace and distance (e.g. pace=5:30,deviation=15,distance=5000)")
        }
        return Mission(targetPace: pace, allowedDeviation: deviation ?? 15, targetDistance: distance)
    }

    static func parsePace(_ text: String) -> Double? {
        let parts = text.split(separator: ":")
        if parts.count == 2, let m = Int(parts[0]), let s = Int(parts[1]), m >= 0, (0..<60).contains(s) {
            let value = Double(m * 60 + s)
            return value > 0 ? value : nil
        }
        if parts.count == 1, let seconds = Double(text), seconds.isFinite, seconds > 0 { return seconds }
        return nil
    }

    static func parseDistance(_ text: String) -> Double? {
        let lower = text.lowercased()
        var value: Double?
        if lower.hasSuffix("km") {
            value = Double(lower.dropLast(2)).map { $0 * 1000 }
        } else if lower.hasSuffix("m") {
            value = Double(lower.dropLast())
        } else {
            value = Double(lower)
        }
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }
}
