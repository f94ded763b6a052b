import RunWayControl
import RunWayCore

/// `--mission pace=5:30,deviation=15,distance=5000`: only what a runner means is accepted, and a
/// refusal names the key, what was given and what is expected. Each value is read by
/// `MissionRule`, the configuration's and the control socket's rule too.
public enum MissionOption {
    /// The ranges are the mission's own (`Mission.paceRange` etc.: one place for every reader).
    public static let paceRange = Mission.paceRange
    public static let deviationRange = Mission.deviationRange
    public static let distanceRange = Mission.distanceRange

    public static func parse(_ text: String) throws(CLIError) -> Mission {
        var pace: Double?
        var deviation: Double?
        var distance: Double?
        var seen: Set<String> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).trimmingCharacters(in: .whitespaces)
            }
            guard pair.count == 2, !pair[0].isEmpty else {
                throw .usage(
                    "--mission: \"\(part)\" is not key=value (e.g. pace=5:30,deviation=15,distance=5000)")
            }
            let (key, value) = (pair[0], pair[1])
            guard seen.insert(key).inserted else { throw .usage("--mission: \(key) is given twice") }
            switch key {
            case "pace":
                guard let seconds = MissionRule.pace(.text(value)) else {
                    throw .usage("--mission: pace \"\(value)\" is not M:SS per km (e.g. 5:30)")
                }
                guard paceRange.contains(seconds) else {
                    throw .usage("--mission: pace \(value)/km is outside 2:00–20:00 per km")
                }
                pace = seconds
            case "deviation":
                guard let seconds = MissionRule.deviation(.text(value)), deviationRange.contains(seconds)
                else {
                    throw .usage("--mission: deviation \"\(value)\" is not 1–120 seconds per km (e.g. 15)")
                }
                deviation = seconds
            case "distance":
                guard let metres = MissionRule.distance(.text(value)) else {
                    throw .usage(
                        "--mission: distance \"\(value)\" is not metres or km (e.g. 5000, 5000m or 5km)")
                }
                guard distanceRange.contains(metres) else {
                    throw .usage("--mission: distance \(value) is outside 100 m–500 km")
                }
                distance = metres
            default:
                throw .usage("--mission: unknown key \"\(key)\" (pace, deviation, distance)")
            }
        }
        guard let pace, let distance else {
            throw .usage("--mission needs pace and distance (e.g. pace=5:30,deviation=15,distance=5000)")
        }
        do {
            return try Mission(
                checkedPace: pace, deviation: deviation ?? MissionRule.defaultDeviation, distance: distance)
        } catch {
            throw .usage("--mission: \(error)")
        }
    }
}
