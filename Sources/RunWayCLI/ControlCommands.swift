import Foundation
import RunWayControl
import RunWayCore

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

    static func send(_ request: ControlRequest, to path: String) throws(CLIError) -> ControlOutcome {
        let client = try connect(path)
        let reply: ControlResponse
        do {
            reply = try client.request(request)
        } catch {
            throw CLIError("\(error)")
        }
        return try checked(reply)
    }

    /// What an accepted request did, or runwayd's refusal as the error (`"ok"` must be JSON
    /// true: `ControlResponse` reads `1` as no yes).
    static func checked(_ reply: ControlResponse) throws(CLIError) -> ControlOutcome {
        switch reply {
        case .ok(let outcome): return outcome
        case .refused(let refusal): throw CLIError("runwayd refused: \(refusal)")
        }
    }

    /// START (with a mission, else the configured one), PAUSE, RESUME or END (`stop`); says what
    /// happened.
    public static func command(
        _ name: String, mission: Mission?, workout: String? = nil, socket: String, console: Console
    ) throws(CLIError) -> Int32 {
        let request: ControlRequest
        switch name {
        case "start": request = .start(mission: mission, workout: workout)
        case "pause": request = .pause
        case "resume": request = .resume
        case "lap": request = .lap
        case "stop": request = .stop(sentAt: nil)
        default: throw CLIError("\(name) is not a runwayd command")
        }
        // No sent_at from here: the board has no RTC, and its wall clock may be years off, which
        // would make a stop look stale (SPEC, control rules: a stop without a time is obeyed).
        console.out(said(try send(request, to: socket)))
        return 0
    }

    /// A command's outcome in a line: `landed, 5.01 km — now touchdown`, `ok — now cruise`.
    static func said(_ reply: ControlOutcome) -> String {
        let phase = reply.phase ?? "?"
        guard let result = reply.result else { return "ok — now \(phase)" }
        let distance = reply.distance.map { ", \(FlightReport.km($0)) km" } ?? ""
        return "\(result.text)\(distance) — now \(phase)"
    }

    /// The live state; with `watch`, a line a second (state) and every callout until Ctrl-C.
    public static func status(socket: String, watch: Bool, json: Bool, console: Console) throws(CLIError)
        -> Int32
    {
        let reply = try send(.status, to: socket)
        guard let status = reply.status else { throw CLIError("runwayd sent no status") }
        console.out(json ? render(status.json) : line(status))
        guard watch else { return 0 }
        let client = try connect(socket, timeout: 0)
        guard case .ok(let subscribed)? = try? client.request(.subscribe), subscribed.subscribed == true
        else {
            throw CLIError("runwayd did not take the subscription")
        }
        while let event = client.nextEvent() {
            if json {
                console.out(render(event.json))
            } else if case .callout(let words) = event.kind {
                console.out("  >> \(words)")
            } else if case .state(let state) = event.kind {
                console.out(line(state))
            }
        }
        throw CLIError("runwayd closed the connection")
    }

    /// runwayd's object as `--json` has always printed it (`foundationSortedRendering`).
    static func render(_ object: JSONValue) -> String { object.foundationSortedRendering() }

    static func line(_ s: ControlStatus) -> String {
        let phase = (s.text(.phase) ?? "?").uppercased()
        let distance = s.number(.distance).map { "\(FlightReport.km($0)) km" } ?? "--"
        let pace = Pace.format(s.number(.pace))
        let altitude = s.number(.altitude).map { String(format: "%.1f m", $0) } ?? "--"
        let battery = s.number(.batteryPercent).map { "\(Int($0)) %" } ?? "--"
        let storage = s.number(.storageFreeBytes).map { String(format: "%.1f GB", $0 / 1e9) } ?? "--"
        let paused = s.flag(.paused) == true ? "  PAUSED (\(s.text(.pauseReason) ?? ""))" : ""
        // Before a run, the run START will fly (chosen with PAUSE at the buttons).
        let waiting = ["preflight", "touchdown"].contains(s.text(.phase) ?? "")
        let run = waiting ? s.text(.run).map { "  RUN \($0)" } ?? "" : ""
        return "\(phase)  \(distance)  \(pace) /km  ALT \(altitude)  \(s.text(.gpws) ?? "")  "
            + "GPS \(s.text(.gpsSignal) ?? "?")  battery \(battery)  storage \(storage)\(paused)\(run)\(step(s))"
    }

    /// A workout's step while it runs: `  STEP 3/14 work 400m @3:50±10, 230 m left`.
    static func step(_ s: ControlStatus) -> String {
        guard let text = s.text(.step), let number = s.number(.stepNumber), let count = s.number(.stepCount)
        else { return "" }
        let left =
            s.number(.stepLeftMetres).map { "\(Int($0.rounded())) m left" }
            ?? s.number(.stepLeftSeconds).map { "\(UTCTime.duration($0)) left" } ?? ""
        return "  STEP \(Int(number))/\(Int(count)) \(text)" + (left.isEmpty ? "" : ", " + left)
    }

    /// `runway export-finished RESULT`: tells runwayd a USB export ended so the buzzer says so.
    /// RESULT is systemd's `$SERVICE_RESULT` (`success`, else a failure) or `ok` / `failed`.
    public static func exportFinished(result: String, socket: String, console: Console) throws(CLIError)
        -> Int32
    {
        let ok = result == "success" || result == "ok"
        let reply = try send(.exportFinished(ok: ok), to: socket)
        console.out(reply.result?.text ?? "ok")
        return 0
    }
}
