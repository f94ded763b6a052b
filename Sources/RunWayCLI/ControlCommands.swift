import Foundation
import RunWayCore
import RunWayDaemon

/// `runway status [--watch] [--json]`, `runway start [--mission …]`, `runway pause`,
/// `runway resume`, `runway stop`: the runner's commands to a running runwayd, over its control
/// socket (`--socket PATH`, default /run/runway/control.sock).
public enum ControlCommands {
    public static let defaultSocket = "/run/runway/control.sock"

    static func connect(_ path: String, timeout: Double = 5) throws(CLIError) -> ControlClient {
        do {
            return try ControlClient(path: path, timeout: timeout)
        } catch {
            throw CLIError("\(error)")
        }
    }

    static func send(_ json: JSONValue, to path: String) throws(CLIError) -> [String: Any] {
        let client = try connect(path)
        let reply: [String: Any]
        do {
            reply = try client.request(json.rendered())
        } catch {
            throw CLIError("\(error)")
        }
        return try checked(reply)
    }

    /// A reply whose "ok" is JSON true (`ControlClient` reads `1` as a number, not a yes).
    static func checked(_ reply: [String: Any]) throws(CLIError) -> [String: Any] {
        guard reply["ok"] as? Bool == true else {
            throw CLIError("runwayd refused: \(reply["error"] as? String ?? "no reason given")")
        }
        return reply
    }

    /// START (with a mission, else the configured one), PAUSE, RESUME or END; says what happened.
    public static func command(_ name: String, mission: Mission?, socket: String, console: Console)
        throws(CLIError)
        -> Int32
    {
        var fields: [(String, JSONValue)] = [("command", .string(name))]
        if let mission {
            fields.append(
                (
                    "mission",
                    .object([
                        ("pace", .string(Pace.format(mission.targetPace))),
                        ("deviation", .number(mission.allowedDeviation)),
                        ("distance", .number(mission.targetDistance)),
                    ])
                ))
        }
        // No sent_at from here: the board has no RTC, and its wall clock may be years off, which
        // would make a stop look stale (SPEC, control rules: a stop without a time is obeyed).
        let reply = try send(.object(fields), to: socket)
        let phase = reply["phase"] as? String ?? "?"
        if let result = reply["result"] as? String {
            let distance = (reply["distance_m"] as? Double).map { ", \(FlightReport.km($0)) km" } ?? ""
            console.out("\(result)\(distance) — now \(phase)")
        } else {
            console.out("ok — now \(phase)")
        }
        return 0
    }

    /// The live state; with `watch`, a line a second (state) and every callout until Ctrl-C.
    public static func status(socket: String, watch: Bool, json: Bool, console: Console) throws(CLIError)
        -> Int32
    {
        let reply = try send(.object([("command", .string("status"))]), to: socket)
        guard let status = reply["status"] as? [String: Any] else { throw CLIError("runwayd sent no status") }
        console.out(json ? render(status) : line(status))
        guard watch else { return 0 }
        let client = try connect(socket, timeout: 0)
        guard (try? client.request(#"{"command":"subscribe"}"#))?["subscribed"] as? Bool == true else {
            throw CLIError("runwayd did not take the subscription")
        }
        while let event = client.nextObject() {
            if json {
                console.out(render(event))
            } else if event["event"] as? String == "callout" {
                console.out("  >> \(event["callout"] as? String ?? "?")")
            } else if let state = event["state"] as? [String: Any] {
                console.out(line(state))
            }
        }
        throw CLIError("runwayd closed the connection")
    }

    static func render(_ object: [String: Any]) -> String {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map {
            String(decoding: $0, as: UTF8.self)
        } ?? "{}"
    }

    static func line(_ s: [String: Any]) -> String {
        func number(_ key: String) -> Double? { s[key] as? Double ?? (s[key] as? Int).map(Double.init) }
        let phase = (s["phase"] as? String ?? "?").uppercased()
        let distance = number("distance_m").map { "\(FlightReport.km($0)) km" } ?? "--"
        let pace = Pace.format(number("pace_s_per_km"))
        let altitude = number("altitude_m").map { String(format: "%.1f m", $0) } ?? "--"
        let battery = number("battery_percent").map { "\(Int($0)) %" } ?? "--"
        let storage = number("storage_free_bytes").map { String(format: "%.1f GB", $0 / 1e9) } ?? "--"
        let paused = (s["paused"] as? Bool) == true ? "  PAUSED (\(s["pause_reason"] as? String ?? ""))" : ""
        return "\(phase)  \(distance)  \(pace) /km  ALT \(altitude)  \(s["gpws"] as? String ?? "")  "
            + "GPS \(s["gps_signal"] as? String ?? "?")  battery \(battery)  storage \(storage)\(paused)"
    }

    /// `runway export-finished RESULT`: tells runwayd a USB export ended so the buzzer says so.
    /// RESULT is systemd's `$SERVICE_RESULT` (`success`, else a failure) or `ok` / `failed`.
    public static func exportFinished(result: String, socket: String, console: Console) throws(CLIError)
        -> Int32
    {
        let ok = result == "success" || result == "ok"
        let reply = try send(
            .object([("command", .string("export-finished")), ("ok", .bool(ok))]), to: socket)
        console.out(reply["result"] as? String ?? "ok")
        return 0
    }
}
