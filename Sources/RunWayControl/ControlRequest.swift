import Foundation
import RunWayCore

/// One request on the control socket: a JSON object on one line (newline-delimited JSON).
///
///     {"command": "status"}
///     {"command": "start", "mission": {"pace": "5:30", "deviation": 15, "distance": 5000}}
///     {"command": "start", "mission": {"heart_rate": {"low": 140, "high": 155}, "time": 1800}}
///     {"command": "start", "mission": {"zone": 2, "distance": 5000}}   (the daemon's zones)
///     {"command": "pause"}   {"command": "resume"}
///     {"command": "stop", "sent_at": "2026-10-03T07:30:00Z"}   (the stale-stop rule; no time: obeyed)
///     {"command": "subscribe"}   (then a line per state and callout until the client leaves)
///     {"command": "export-finished", "ok": true}   (the USB export's end: the buzzer says it)
///     {"command": "sensors-scan", "seconds": 10}   (Bluetooth sensors near: 1–60 s, default 10)
///     {"command": "sensors-pair", "sensor": "AA:BB:CC:DD:EE:FF"}   (an address or a name)
///     {"command": "sensors-forget", "sensor": "Polar H10 1A2B3C4D"}   {"command": "sensors-list"}
///
/// `parse` is runwayd's reader, `line` what `runway` sends (`Tests/Fixtures/control/request-*`).
/// A field this version does not know is refused ("\"x\" does not go with \"status\"": a typo is
/// never silently dropped) unless the request says a newer `protocol_version` than ours: then
/// it is a newer client's field, and ignored.
public enum ControlRequest: Sendable, Equatable {
    case status
    /// `workout`: a configured run's name or a workout's text, as the runner gave it; runwayd
    /// resolves it (only it knows the configured runs) and refuses what is neither.
    case start(mission: Mission?, workout: String? = nil)
    case pause
    case resume
    /// The runner's lap (END pressed briefly in flight).
    case lap
    case stop(sentAt: Double?)
    case subscribe
    /// An export to a USB stick ended (and the stick was unmounted): sound done or failed.
    case exportFinished(ok: Bool)
    /// Scan for Bluetooth sensors for `seconds` (1–60), then reply with what was found.
    case sensorsScan(seconds: Int)
    /// Pair the sensor with this address or name (one per kind: a second strap replaces the first).
    case sensorsPair(sensor: String)
    /// Forget a paired sensor (address or name).
    case sensorsForget(sensor: String)
    /// The paired sensors and how they are.
    case sensorsList

    /// The scan's seconds when a request does not say.
    public static let defaultScanSeconds = 10
    public static let scanSeconds = 1...60
    /// The pairing's bound: BlueZ's own Pair call gives up after about 25 s; then runwayd says so.
    public static let pairSeconds = 30

    /// How long runwayd may take to answer: the sensors' requests wait for the radio (a scan for
    /// its seconds, a pairing for the sensor), with 10 s to spare for a board busy writing its
    /// logbook; every other request is answered at once or said busy.
    public var answerSeconds: Double? {
        switch self {
        case .sensorsScan(let seconds): Double(seconds) + 10
        case .sensorsPair: Double(Self.pairSeconds) + 10
        case .sensorsForget, .sensorsList: 10
        default: nil
        }
    }

    /// Every command, as the refusal of an unknown one lists them.
    static let commandNames =
        "status, start, pause, resume, lap, stop, subscribe, export-finished, sensors-scan, sensors-pair, sensors-forget, sensors-list"

    /// A line longer than this is refused and the client dropped: no client can make the
    /// daemon hold more.
    public static let maxLineBytes = 64 * 1024

    /// Why a line is not a request: said back to the client in one sentence.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        public init(message: String) { self.message = message }
    }

    /// `zones`: the runner's, which a mission's `"zone": N` is taken from (runwayd's configuration).
    public static func parse(_ line: [UInt8], zones: HeartRateZones = .unconfigured) throws(Refusal)
        -> ControlRequest
    {
        guard line.count <= maxLineBytes else { throw Refusal(message: "request longer than 64 KiB") }
        let root: JSONValue
        do {
            root = try JSONValue.parse(line)
        } catch {
            if case .duplicateKey = error { throw Refusal(message: "\(error)") }
            throw Refusal(message: "not a JSON object (\(error))")
        }
        guard case .object(let members) = root else { throw Refusal(message: "not a JSON object") }
        guard let command = root["command"]?.stringValue else {
            throw Refusal(
                message: "no \"command\" (\(Self.commandNames))")
        }
        let allowed: Set<String> =
            switch command {
            case "start": ["command", "mission", "workout", "protocol_version"]
            case "stop": ["command", "sent_at", "protocol_version"]
            case "export-finished": ["command", "ok", "protocol_version"]
            case "sensors-scan": ["command", "seconds", "protocol_version"]
            case "sensors-pair", "sensors-forget": ["command", "sensor", "protocol_version"]
            default: ["command", "protocol_version"]
            }
        let newer = (root["protocol_version"]?.numberValue ?? 0) > Double(ControlContract.protocolVersion)
        if !newer, let extra = members.map(\.0).sorted().first(where: { !allowed.contains($0) }) {
            throw Refusal(message: "\"\(extra)\" does not go with \"\(command)\"")
        }
        switch command {
        case "status": return .status
        case "pause": return .pause
        case "resume": return .resume
        case "lap": return .lap
        case "subscribe": return .subscribe
        case "sensors-list": return .sensorsList
        case "sensors-scan":
            guard let given = root["seconds"], !given.isNull else {
                return .sensorsScan(seconds: defaultScanSeconds)
            }
            guard let n = given.numberValue, n == n.rounded(), Double(scanSeconds.lowerBound) <= n,
                n <= Double(scanSeconds.upperBound)
            else {
                throw Refusal(message: "seconds: expected a whole number 1–60, got \(Reader.describe(given))")
            }
            return .sensorsScan(seconds: Int(n))
        case "sensors-pair", "sensors-forget":
            let sensor = try Self.sensor(root["sensor"], for: command)
            return command == "sensors-pair" ? .sensorsPair(sensor: sensor) : .sensorsForget(sensor: sensor)
        case "start":
            let workout = try Self.workout(root["workout"])
            guard let mission = root["mission"], !mission.isNull else {
                return .start(mission: nil, workout: workout)
            }
            guard workout == nil else {
                throw Refusal(message: "start takes a mission or a workout, not both")
            }
            do {
                return .start(mission: try Reader(value: mission, path: "mission").mission(zones: zones))
            } catch {
                throw Refusal(message: "\(error)")
            }
        case "export-finished":
            // JSON true or false only: 1, "true" or null is not an answer.
            guard let ok = root["ok"]?.boolValue else {
                throw Refusal(message: "export-finished needs \"ok\": true or false")
            }
            return .exportFinished(ok: ok)
        case "stop":
            guard let sent = root["sent_at"], !sent.isNull else { return .stop(sentAt: nil) }
            guard let text = sent.stringValue, let time = UTCTime.parse(text) else {
                throw Refusal(message: "sent_at: expected an ISO-8601 UTC time, got \(Reader.describe(sent))")
            }
            return .stop(sentAt: time)
        default:
            throw Refusal(
                message:
                    "unknown command \"\(command)\" (\(Self.commandNames))"
            )
        }
    }

    /// A sensor's address or name: text of 1–248 bytes (a Bluetooth name's most) without control
    /// or format characters or line separators (`isUnsafeForDisplay`: a newline would split
    /// runwayd's log line, an ESC or a bidi override would drive the terminal that reads it).
    private static func sensor(_ value: JSONValue?, for command: String) throws(Refusal) -> String {
        guard let value, let text = value.stringValue else {
            throw Refusal(message: "\(command) needs \"sensor\": an address (AA:BB:CC:DD:EE:FF) or a name")
        }
        guard !text.isEmpty, text.utf8.count <= 248,
            !text.unicodeScalars.contains(where: \.isUnsafeForDisplay)
        else {
            throw Refusal(
                message:
                    "sensor: expected an address or a name of 1–248 bytes without control characters, got \(Reader.describe(value))"
            )
        }
        return text
    }

    /// A workout's name or text: 1–4000 bytes (`Workout`'s longest text) without control
    /// characters; what it says is runwayd's to check.
    private static func workout(_ value: JSONValue?) throws(Refusal) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue, !text.isEmpty, text.utf8.count <= 4000,
            !text.unicodeScalars.contains(where: \.isUnsafeForDisplay)
        else {
            throw Refusal(
                message:
                    "workout: expected a run's name or a workout (\"wu 1km; 6x(work 400m @3:50, recover 200m)\") of 1–4000 bytes, got \(Reader.describe(value))"
            )
        }
        return text
    }

    /// The line `runway` sends (no newline), with the fields in the order of the goldens.
    public var line: String { json.rendered() }

    public var json: JSONValue {
        switch self {
        case .status: Self.command("status")
        case .pause: Self.command("pause")
        case .resume: Self.command("resume")
        case .lap: Self.command("lap")
        case .subscribe: Self.command("subscribe")
        case .start(let mission, let workout):
            Self.command(
                "start",
                (mission.map { [("mission", Self.json($0))] } ?? [])
                    + (workout.map { [("workout", JSONValue.string($0))] } ?? []))
        case .stop(let sentAt):
            Self.command("stop", sentAt.map { [("sent_at", .string(UTCTime.format($0)))] } ?? [])
        case .exportFinished(let ok): Self.command("export-finished", [("ok", .bool(ok))])
        case .sensorsScan(let seconds): Self.command("sensors-scan", [("seconds", .number(Double(seconds)))])
        case .sensorsPair(let sensor): Self.command("sensors-pair", [("sensor", .string(sensor))])
        case .sensorsForget(let sensor): Self.command("sensors-forget", [("sensor", .string(sensor))])
        case .sensorsList: Self.command("sensors-list")
        }
    }

    /// A pace mission's fields as they always were (`pace`, `deviation`, `distance`, in that
    /// order); a heart-rate band as `heart_rate` in beats per minute (the band the runner was
    /// given, so a zone is not taken again from the daemon's zones), a time goal as `time`
    /// in seconds.
    static func json(_ mission: Mission) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if let pace = mission.pace {
            fields += [
                ("pace", .string(Pace.format(pace.targetPace))),
                ("deviation", .number(pace.allowedDeviation)),
            ]
        }
        if let band = mission.heartRate {
            fields.append(
                ("heart_rate", .object([("low", .number(band.low)), ("high", .number(band.high))])))
        }
        switch mission.goal {
        case .distance(let metres): fields.append(("distance", .number(metres)))
        case .duration(let seconds): fields.append(("time", .number(seconds)))
        }
        return .object(fields)
    }

    private static func command(_ name: String, _ fields: [(String, JSONValue)] = []) -> JSONValue {
        .object([("command", .string(name))] + fields)
    }
}
