import Foundation
import RunWayCore
import RunWayHardware

/// The configuration's nested sections: the battery, the voice, the runner's zones, the mission.
extension Reader {
    /// `{"power_supply": "/sys/class/power_supply", "low_percent": 20, "critical_percent": 5,
    /// "poll_seconds": 30}`
    func battery() throws(Problem) -> DaemonConfiguration.Battery {
        var battery = DaemonConfiguration.Battery()
        let entries = try object(known: ["power_supply", "low_percent", "critical_percent", "poll_seconds"])
        if let root = entries["power_supply"] {
            let path = try root.string("an absolute path, e.g. \"/sys/class/power_supply\"")
            guard path.hasPrefix("/") else {
                throw root.fail("an absolute path, e.g. \"/sys/class/power_supply\"")
            }
            battery.powerSupply = path
        }
        if let low = entries["low_percent"] {
            battery.lowPercent = try low.whole("a percentage 5–50", in: 5...50)
        }
        if let critical = entries["critical_percent"] {
            battery.criticalPercent = try critical.whole("a percentage 1–20", in: 1...20)
            guard battery.criticalPercent < battery.lowPercent else {
                throw critical.fail("a percentage below low_percent (\(battery.lowPercent))")
            }
        }
        if let poll = entries["poll_seconds"] {
            battery.pollSeconds = try poll.number("seconds 0.1–600", in: 0.1...600)
        }
        return battery
    }

    /// The `voice` object (`DaemonConfiguration.Voice`).
    func voice() throws(Problem) -> DaemonConfiguration.Voice {
        var voice = DaemonConfiguration.Voice()
        let entries = try object(known: ["output", "language", "device", "engine", "name", "rate"])
        func oneOf(_ entry: Reader, _ names: [String]) throws(Problem) -> String {
            let expected = names.map { "\"\($0)\"" }.joined(separator: ", ")
            let text = try entry.string("one of \(expected)")
            guard names.contains(text) else { throw entry.fail("one of \(expected)") }
            return text
        }
        if let output = entries["output"], !output.isNull {
            voice.output = VoiceOutput(rawValue: try oneOf(output, VoiceOutput.allCases.map(\.rawValue)))
        }
        if let language = entries["language"] {
            voice.language =
                VoiceLanguage(rawValue: try oneOf(language, VoiceLanguage.allCases.map(\.rawValue)))
                ?? .english
        }
        if let device = entries["device"] {
            voice.device = try device.string(
                "an ALSA device name, e.g. \"default\" or \"plughw:CARD=Device\"")
        }
        if let engine = entries["engine"], !engine.isNull {
            voice.engine = try oneOf(engine, DaemonConfiguration.Voice.engines)
        }
        if let name = entries["name"], !name.isNull {
            voice.name = try name.string("a voice name, e.g. \"slt\" or \"en-us\"")
        }
        if let rate = entries["rate"], !rate.isNull {
            // What both engines take (flite's duration stretch is bounded at 350).
            voice.rate = try rate.whole("words per minute 80–350", in: 80...350)
        }
        if voice.engine == "flite", voice.language != .english, let engine = entries["engine"] {
            throw Problem(
                path: engine.path,
                message:
                    "flite speaks English only; for \"\(voice.language.rawValue)\" leave engine unset or use \"espeak-ng\""
            )
        }
        return voice
    }

    /// The runner's zones from `max_heart_rate` (bpm 100–230), `resting_heart_rate` (bpm 30–120,
    /// below the maximum) and `heart_rate_zones` (`"max"`: fractions of the maximum, `"reserve"`:
    /// of the reserve above the resting heart rate); each unset one keeps
    /// `HeartRateZones.unconfigured`'s.
    func heartRateZones(_ entries: [String: Reader]) throws(Problem) -> HeartRateZones {
        var zones = HeartRateZones.unconfigured
        if let maximum = entries["max_heart_rate"], !maximum.isNull {
            zones.maximum = try maximum.number("beats per minute 100–230", in: 100...230)
        }
        if let resting = entries["resting_heart_rate"], !resting.isNull {
            zones.resting = try resting.number("beats per minute 30–120", in: 30...120)
            guard zones.resting < zones.maximum - 20 else {
                throw resting.fail(
                    "beats per minute at least 20 below max_heart_rate (\(Int(zones.maximum)))")
            }
        }
        if let method = entries["heart_rate_zones"], !method.isNull {
            let names = HeartRateZones.Method.allCases.map(\.rawValue)
            let expected = names.map { "\"\($0)\"" }.joined(separator: " or ")
            let text = try method.string(expected)
            guard let chosen = HeartRateZones.Method(rawValue: text) else { throw method.fail(expected) }
            zones.method = chosen
        }
        return zones
    }

    /// `{"pace": "5:30", "deviation": 15, "distance": 5000}` (or `"15s"`, `"5km"`), with or
    /// instead of the pace `"heart_rate": {"low": 140, "high": 155}` or `"zone": 2` (of `zones`),
    /// and instead of the distance `"time"` (seconds, or `"30:00"`, `"30min"`): the `--mission`
    /// option's rule and ranges (`MissionRule`).
    func mission(zones: HeartRateZones) throws(Problem) -> Mission {
        let entries = try object(known: ["pace", "deviation", "distance", "time", "heart_rate", "zone"])
        let needs =
            "a mission needs pace (or heart_rate, or zone) and distance (or time), e.g. {\"pace\": \"5:30\", \"distance\": 5000}"
        guard entries["pace"] ?? entries["heart_rate"] ?? entries["zone"] != nil,
            entries["distance"] ?? entries["time"] != nil
        else { throw Problem(path: path, message: needs) }
        var band: Mission.PaceBand?
        if let paceEntry = entries["pace"] {
            let paceText = try paceEntry.string("a pace as M:SS per km, e.g. \"5:30\"")
            guard let pace = MissionRule.pace(.text(paceText)), Mission.paceRange.contains(pace) else {
                throw paceEntry.fail("a pace as M:SS per km from 2:00 to 20:00, e.g. \"5:30\"")
            }
            let deviation =
                try entries["deviation"]?.target(
                    MissionRule.deviation, "seconds per km 1–120", in: Mission.deviationRange)
                ?? MissionRule.defaultDeviation
            band = Mission.PaceBand(targetPace: pace, allowedDeviation: deviation)
        } else if let deviation = entries["deviation"] {
            throw Problem(
                path: deviation.path, message: "a deviation goes with a pace, e.g. \"pace\": \"5:30\"")
        }
        let heartRate = try heartRateBand(entries, zones: zones)
        let goal: Mission.Goal
        switch (entries["distance"], entries["time"]) {
        case (let distance?, nil):
            goal = .distance(
                try distance.target(MissionRule.distance, "metres 100–500000", in: Mission.distanceRange))
        case (nil, let time?):
            goal = .duration(
                try time.target(
                    MissionRule.duration, "seconds 60–172800, or a time as \"30:00\", \"30min\"",
                    in: Mission.durationRange))
        case (_?, let time?):
            throw Problem(path: time.path, message: "distance and time both end the mission: give one")
        case (nil, nil):
            throw Problem(path: path, message: needs)
        }
        do {
            return try Mission(checkedPace: band, heartRate: heartRate, goal: goal)
        } catch {
            throw Problem(path: path, message: "\(error)")
        }
    }

    /// `"heart_rate": {"low": 140, "high": 155}` (bpm) or `"zone": 2` (of `zones`), or neither.
    func heartRateBand(_ entries: [String: Reader], zones: HeartRateZones) throws(Problem)
        -> Mission.HeartRateBand?
    {
        switch (entries["heart_rate"], entries["zone"]) {
        case (_?, let zone?):
            throw Problem(path: zone.path, message: "heart_rate and zone both set the heart rate: give one")
        case (let bpm?, nil):
            let edges = try bpm.object(known: ["low", "high"])
            guard let low = edges["low"], let high = edges["high"] else {
                throw bpm.fail("{\"low\": 140, \"high\": 155} in beats per minute")
            }
            let lowBPM = try low.number("beats per minute 60–230", in: Mission.heartRateRange)
            let highBPM = try high.number("beats per minute 60–230", in: Mission.heartRateRange)
            do { return try Mission.HeartRateBand(checkedLow: lowBPM, high: highBPM) } catch {
                throw Problem(path: bpm.path, message: "\(error)")
            }
        case (nil, let zone?):
            guard let given = MissionRule.Given(zone.value), let n = MissionRule.zone(given) else {
                throw zone.fail("a heart-rate zone 1–5")
            }
            do { return try Mission.HeartRateBand(zone: n, of: zones) } catch {
                throw Problem(path: zone.path, message: "\(error)")
            }
        case (nil, nil):
            return nil
        }
    }

    /// A mission target read by `rule` from a JSON number or its text, inside `range`.
    func target(_ rule: (MissionRule.Given) -> Double?, _ expected: String, in range: ClosedRange<Double>)
        throws(Problem) -> Double
    {
        guard let given = MissionRule.Given(value), let n = rule(given), range.contains(n) else {
            throw fail(expected)
        }
        return n
    }
}
