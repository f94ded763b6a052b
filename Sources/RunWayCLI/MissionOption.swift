import RunWayControl
import RunWayCore

/// `--mission pace=5:30,deviation=15,distance=5000` (or `hr=140-155`, `zone=2` with or instead of
/// the pace, `time=30:00` instead of the distance): only what a runner means is accepted, and a
/// refusal names the key, what was given and what is expected. Each value is read by
/// `MissionRule`, the configuration's and the control socket's rule too.
public enum MissionOption {
    /// The ranges are the mission's own (`Mission.paceRange` etc.: one place for every reader).
    public static let paceRange = Mission.paceRange
    public static let deviationRange = Mission.deviationRange
    public static let distanceRange = Mission.distanceRange
    public static let durationRange = Mission.durationRange

    static let example = "e.g. pace=5:30,deviation=15,distance=5000 or zone=2,time=30:00"

    /// `zones`: the runner's, which `zone=N` is taken from (the configuration's); asked only for
    /// a `zone=` mission, so a pace mission never reads the configuration.
    public static func parse(
        _ text: String, zones: () throws(CLIError) -> HeartRateZones = { .unconfigured }
    ) throws(CLIError) -> Mission {
        var pace: Double?
        var deviation: Double?
        var goal: Mission.Goal?
        var heartRate: Mission.HeartRateBand?
        var seen: Set<String> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).trimmingCharacters(in: .whitespaces)
            }
            guard pair.count == 2, !pair[0].isEmpty else {
                throw .usage("--mission: \"\(part)\" is not key=value (\(example))")
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
            case "distance", "time":
                if goal != nil { throw .usage("--mission: distance and time both end the mission: give one") }
                goal = try self.goal(key, value)
            case "hr", "zone":
                if heartRate != nil {
                    throw .usage("--mission: hr and zone both set the heart rate: give one")
                }
                heartRate = try band(key, value, zones: zones)
            default:
                throw .usage("--mission: unknown key \"\(key)\" (pace, deviation, distance, time, hr, zone)")
            }
        }
        if deviation != nil && pace == nil {
            throw .usage("--mission: deviation goes with a pace (pace=5:30)")
        }
        guard pace != nil || heartRate != nil, let goal else {
            throw .usage("--mission needs pace, hr or zone, and distance or time (\(example))")
        }
        do {
            return try Mission(
                checkedPace: pace.map {
                    Mission.PaceBand(
                        targetPace: $0, allowedDeviation: deviation ?? MissionRule.defaultDeviation)
                },
                heartRate: heartRate, goal: goal)
        } catch {
            throw .usage("--mission: \(error)")
        }
    }

    /// A mission's targets as the summary and the demo print them: a pace mission as it always
    /// read ("5:30/km ±15 s, 5.00 km"), a heart rate as "HR 140–155 bpm" (or "zone 2, 114–133
    /// bpm"), a time goal as "30:00".
    /// `goalSeparator` comes before the goal (the demo says "over").
    public static func describe(_ mission: Mission, goalSeparator: String = ", ") -> String {
        var parts: [String] = []
        if let pace = mission.pace {
            parts.append("\(Pace.format(pace.targetPace))/km ±\(Int(pace.allowedDeviation)) s")
        }
        if let band = mission.heartRate {
            let bpm = "\(Int(band.low.rounded()))–\(Int(band.high.rounded())) bpm"
            parts.append(band.zone.map { "zone \($0), \(bpm)" } ?? "HR \(bpm)")
        }
        let goal: String
        switch mission.goal {
        case .distance(let metres): goal = "\(FlightReport.km(metres)) km"
        case .duration(let seconds):
            let total = Int(seconds.rounded())
            let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
            goal =
                h > 0
                ? "\(h):\(UTCTime.pad(m, 2)):\(UTCTime.pad(s, 2))" : "\(m):\(UTCTime.pad(s, 2))"
        }
        return parts.joined(separator: ", ") + goalSeparator + goal
    }

    static func goal(_ key: String, _ value: String) throws(CLIError) -> Mission.Goal {
        if key == "distance" {
            guard let metres = MissionRule.distance(.text(value)) else {
                throw .usage("--mission: distance \"\(value)\" is not metres or km (e.g. 5000, 5000m or 5km)")
            }
            guard distanceRange.contains(metres) else {
                throw .usage("--mission: distance \(value) is outside 100 m–500 km")
            }
            return .distance(metres)
        }
        guard let seconds = MissionRule.duration(.text(value)) else {
            throw .usage("--mission: time \"\(value)\" is not a time (e.g. 30:00, 1:05:00, 30min or 1800s)")
        }
        guard durationRange.contains(seconds) else {
            throw .usage("--mission: time \(value) is outside 1 minute–48 hours")
        }
        return .duration(seconds)
    }

    static func band(_ key: String, _ value: String, zones: () throws(CLIError) -> HeartRateZones)
        throws(CLIError)
        -> Mission.HeartRateBand
    {
        if key == "zone" {
            guard let zone = MissionRule.zone(.text(value)) else {
                throw .usage("--mission: zone \"\(value)\" is not a heart-rate zone 1–5")
            }
            let zones = try zones()
            do { return try Mission.HeartRateBand(zone: zone, of: zones) } catch {
                throw .usage("--mission: \(error)")
            }
        }
        guard let (low, high) = MissionRule.heartRate(value) else {
            throw .usage("--mission: hr \"\(value)\" is not LOW-HIGH beats per minute (e.g. 140-155)")
        }
        do { return try Mission.HeartRateBand(checkedLow: low, high: high) } catch {
            throw .usage("--mission: \(error)")
        }
    }
}
