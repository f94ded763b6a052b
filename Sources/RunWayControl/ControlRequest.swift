import Foundation
import RunWayCore

/// One request on the control socket: a JSON object on one line (newline-delimited JSON).
///
///     {"command": "status"}
///     {"command": "start", "mission": {"pace": "5:30", "deviation": 15, "distance": 5000}}
///     {"command": "pause"}   {"command": "resume"}
///     {"command": "stop", "sent_at": "2026-10-03T07:30:00Z"}   (the stale-stop rule; no time: obeyed)
///     {"command": "subscribe"}   (then a line per state and callout until the client leaves)
///     {"command": "export-finished", "ok": true}   (the USB export's end: the buzzer says it)
///
/// `parse` is runwayd's reader, `line` what `runway` sends (`Tests/Fixtures/control/request-*`).
/// A field this version does not know is refused ("\"x\" does not go with \"status\"": a typo is
/// never silently dropped) unless the request says a newer `protocol_version` than ours: then
/// it is a newer client's field, and ignored.
public enum ControlRequest: Sendable, Equatable {
    case status
    case start(mission: Mission?)
    case pause
    case resume
    case stop(sentAt: Double?)
    case subscribe
    /// An export to a USB stick ended (and the stick was unmounted): sound done or failed.
    case exportFinished(ok: Bool)

    /// A line longer than this is refused and the client dropped: no client can make the
    /// daemon hold more.
    public static let maxLineBytes = 64 * 1024

    /// Why a line is not a request: said back to the client in one sentence.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        public init(message: String) { self.message = message }
    }

    public static func parse(_ line: [UInt8]) throws(Refusal) -> ControlRequest {
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
                message: "no \"command\" (status, start, pause, resume, stop, subscribe, export-finished)")
        }
        let allowed: Set<String> =
            switch command {
            case "start": ["command", "mission", "protocol_version"]
            case "stop": ["command", "sent_at", "protocol_version"]
            case "export-finished": ["command", "ok", "protocol_version"]
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
        case "subscribe": return .subscribe
        case "start":
            guard let mission = root["mission"], !mission.isNull else { return .start(mission: nil) }
            do {
                return .start(mission: try Reader(value: mission, path: "mission").mission())
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
                    "unknown command \"\(command)\" (status, start, pause, resume, stop, subscribe, export-finished)"
            )
        }
    }

    /// The line `runway` sends (no newline), with the fields in the order of the goldens.
    public var line: String { json.rendered() }

    public var json: JSONValue {
        switch self {
        case .status: Self.command("status")
        case .pause: Self.command("pause")
        case .resume: Self.command("resume")
        case .subscribe: Self.command("subscribe")
        case .start(let mission):
            Self.command(
                "start",
                mission.map {
                    [
                        (
                            "mission",
                            .object([
                                ("pace", .string(Pace.format($0.targetPace))),
                                ("deviation", .number($0.allowedDeviation)),
                                ("distance", .number($0.targetDistance)),
                            ])
                        )
                    ]
                } ?? [])
        case .stop(let sentAt):
            Self.command("stop", sentAt.map { [("sent_at", .string(UTCTime.format($0)))] } ?? [])
        case .exportFinished(let ok): Self.command("export-finished", [("ok", .bool(ok))])
        }
    }

    private static func command(_ name: String, _ fields: [(String, JSONValue)] = []) -> JSONValue {
        .object([("command", .string(name))] + fields)
    }
}
