import RunWayControl
import RunWayCore

/// `runway sensors scan | pair | forget | list`: the runner's Bluetooth sensors, through the
/// running runwayd (which owns the radio and keeps the paired list in its state), one typed
/// request each (`sensors-scan`, `sensors-pair`, `sensors-forget`, `sensors-list`).
enum SensorsCommands {
    /// Sends `request`, waiting as long as runwayd may take to answer it (a scan's seconds).
    static func send(_ request: ControlRequest, to socket: String) throws(CLIError) -> ControlOutcome {
        let client = try ControlCommands.connect(socket, timeout: (request.answerSeconds ?? 3) + 2)
        let reply: ControlResponse
        do {
            reply = try client.request(request)
        } catch {
            throw CLIError("\(error)")
        }
        return try ControlCommands.checked(reply)
    }

    static func scan(seconds: Int, socket: String, json: Bool, console: Console) throws(CLIError) -> Int32 {
        if !json { console.err("runway: scanning for \(seconds) s…") }
        let found = try send(.sensorsScan(seconds: seconds), to: socket).sensors ?? []
        if json {
            console.out(JSONValue.array(found.map(\.json)).rendered())
        } else if found.isEmpty {
            console.out(
                "no sensor found in \(seconds) s: wake it (wet the strap, or take a few steps with the footpod) and scan again"
            )
        } else {
            for sensor in found {
                let rssi = sensor.rssi.map { "\($0) dBm" } ?? "--"
                console.out(
                    [
                        sensor.address, FlightReport.padRight(kinds(sensor), 11),
                        FlightReport.padRight(sensor.name ?? "(no name)", 24), FlightReport.padRight(rssi, 8),
                        sensor.paired == true ? "paired" : "",
                    ].joined(separator: "  ").trimmingTrailingSpaces)
            }
        }
        return 0
    }

    static func pair(_ sensor: String, socket: String, json: Bool, console: Console) throws(CLIError) -> Int32
    {
        let outcome = try send(.sensorsPair(sensor: sensor), to: socket)
        guard let paired = outcome.paired else { throw CLIError("runwayd did not say what it paired") }
        if json {
            var fields: [(String, JSONValue)] = [("paired", paired.json)]
            fields.append(("replaced", .array((outcome.replaced ?? []).map(\.json))))
            console.out(JSONValue.object(fields).rendered())
            return 0
        }
        var line = "paired \(named(paired)) as the \(kinds(paired)) sensor; runwayd connects to it now"
        if let replaced = outcome.replaced, !replaced.isEmpty {
            line += " (it replaces \(replaced.map(named).joined(separator: ", ")): one sensor of a kind)"
        }
        console.out(line)
        return 0
    }

    static func forget(_ sensor: String, socket: String, console: Console) throws(CLIError) -> Int32 {
        let outcome = try send(.sensorsForget(sensor: sensor), to: socket)
        guard let forgotten = outcome.forgotten else { throw CLIError("runwayd did not say what it forgot") }
        console.out("forgot \(named(forgotten))")
        return 0
    }

    static func list(socket: String, json: Bool, console: Console) throws(CLIError) -> Int32 {
        let sensors = try send(.sensorsList, to: socket).sensors ?? []
        if json {
            console.out(JSONValue.array(sensors.map(\.json)).rendered())
        } else if sensors.isEmpty {
            console.out("no sensor paired: runway sensors scan, then runway sensors pair ADDRESS")
        } else {
            for sensor in sensors { console.out(line(sensor)) }
        }
        return 0
    }

    /// `A0:9E:1A:12:34:56  heart rate  Polar H10  connected  battery 87 %  72 bpm  seen 2 s ago`
    /// ("seen" with the GPS time from a runwayd too old to send the age; "never" only when
    /// nothing ever arrived).
    static func line(_ s: ControlSensor) -> String {
        var parts = [
            s.address, FlightReport.padRight(kinds(s), 11), FlightReport.padRight(s.name ?? "(no name)", 24),
            s.connected == true ? "connected   " : "not connected",
            "battery " + (s.batteryPercent.map { "\($0) %" } ?? "--"),
        ]
        if let bpm = s.heartRate { parts.append("\(Int(bpm.rounded())) bpm") }
        if let cadence = s.cadence { parts.append("\(Int(cadence.rounded())) spm") }
        if s.contact == false { parts.append("no skin contact") }
        let ago = s.lastSeenAge.map { "\(Int($0.rounded())) s ago" }
        parts.append("seen " + (ago ?? s.lastSeen.map(UTCTime.format) ?? "never"))
        return parts.joined(separator: "  ")
    }

    static func kinds(_ s: ControlSensor) -> String { s.kinds.map(\.words).joined(separator: "+") }

    static func named(_ s: ControlSensor) -> String { s.name.map { "\($0) (\(s.address))" } ?? s.address }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
