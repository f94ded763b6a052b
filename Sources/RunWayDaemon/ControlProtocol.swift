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
            case "start": ["command", "mission"]
            case "stop": ["command", "sent_at"]
            case "export-finished": ["command", "ok"]
            default: ["command"]
            }
        if let extra = members.map(\.0).sorted().first(where: { !allowed.contains($0) }) {
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
}

/// What the daemon knows beyond the engine, for `status`.
public struct BoardStatus: Sendable, Equatable {
    public var batteryPercent: Double?
    /// Free bytes where the logbook lives.
    public var storageFreeBytes: Double?
    public var flightID: Int64?
    /// The barometer as runwayd last heard it (nil: it has not read one yet).
    public var barometer: Barometer?

    public struct Barometer: Sendable, Equatable {
        public var answering: Bool
        /// The newest idle reading, Pa.
        public var pascals: Double?
        /// The tendency over the last hours (nil: under an hour of idle readings).
        public var weather: Barograph.Reading?

        public init(answering: Bool, pascals: Double?, weather: Barograph.Reading?) {
            self.answering = answering
            self.pascals = pascals
            self.weather = weather
        }
    }

    /// Free bytes on the filesystem holding `directory` (the logbook's), or nil when it cannot be
    /// read: what `status` says and what the checklist turns into hours of recording.
    public static func freeBytes(in directory: String) -> Double? {
        let attributes = try? FileManager.default.attributesOfFileSystem(
            forPath: directory.isEmpty ? "." : directory)
        return (attributes?[.systemFreeSize] as? NSNumber)?.doubleValue
    }

    public init(
        batteryPercent: Double? = nil, storageFreeBytes: Double? = nil, flightID: Int64? = nil,
        barometer: Barometer? = nil
    ) {
        self.batteryPercent = batteryPercent
        self.storageFreeBytes = storageFreeBytes
        self.flightID = flightID
        self.barometer = barometer
    }
}

/// The lines the daemon writes back. Field names are a contract: added, never renamed.
public enum ControlReply {
    public static func ok(_ fields: [(String, JSONValue)] = []) -> String {
        JSONValue.object([("ok", .bool(true))] + fields).rendered()
    }

    public static func refused(_ message: String) -> String {
        JSONValue.object([("ok", .bool(false)), ("error", .string(message))]).rendered()
    }

    /// The live state: the PFD and the board.
    public static func status(_ pfd: PFD, board: BoardStatus) -> JSONValue {
        .object([
            ("time", pfd.time > 0 ? .string(UTCTime.format(pfd.time)) : .null),
            ("phase", .string(pfd.phase.rawValue)),
            ("distance_m", .number(pfd.distance, places: 1)),
            ("elapsed_s", .number(pfd.elapsed, places: 1)),
            ("moving_s", .number(pfd.movingTime, places: 1)),
            ("pace_s_per_km", .number(pfd.pace, places: 1)),
            ("altitude_m", .number(pfd.altitude, places: 1)),
            ("heading_deg", .number(pfd.heading, places: 0)),
            ("gpws", .string(pfd.gpws.rawValue)),
            ("paused", .bool(pfd.pauseReason != nil)),
            ("pause_reason", pfd.pauseReason.map { .string($0.rawValue) } ?? .null),
            ("gps_signal", .string(pfd.signal.rawValue)),
            ("heart_rate", .number(pfd.heartRate, places: 0)),
            ("cadence", .number(pfd.cadence, places: 0)),
            ("splits", .number(Double(pfd.completedSplits))),
            ("battery_percent", .number(board.batteryPercent, places: 0)),
            ("storage_free_bytes", .number(board.storageFreeBytes, places: 0)),
            ("flight_id", board.flightID.map { .number(Double($0)) } ?? .null),
            ("barometer", board.barometer.map { .string($0.answering ? "ok" : "missing") } ?? .null),
            ("pressure_pa", .number(board.barometer?.pascals, places: 0)),
            ("pressure_tendency", board.barometer?.weather.map { .string($0.tendency.rawValue) } ?? .null),
            ("pressure_change_pa_3h", .number(board.barometer?.weather?.changePer3h, places: 0)),
            ("barograph_s", .number(board.barometer?.weather?.span, places: 0)),
        ])
    }

    public static func event(state pfd: PFD, board: BoardStatus) -> String {
        JSONValue.object([("event", .string("state")), ("state", status(pfd, board: board))]).rendered()
    }

    public static func event(callout: TimedCallout) -> String {
        JSONValue.object([
            ("event", .string("callout")), ("callout", .string(callout.callout.text)),
            ("time", .string(UTCTime.format(callout.time))),
        ]).rendered()
    }
}
