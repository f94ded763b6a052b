import RunWayCore
import RunWayHardware

/// `runway gps [HOST:PORT] [--count N] [--timeout SECONDS] [--json]`: the fixes exactly as the
/// client delivers them to the engine, for a maintainer wiring a board.
public enum GPSCommand {
    /// - Parameter timeout: give up (exit 1) when `count` fixes (or, without `count`, the first
    ///   fix) have not arrived within this many seconds; nil waits for ever, as the daemon does.
    public static func run(
        endpoint: GPSDEndpoint, count: Int?, timeout: Double?, json: Bool, console: Console,
        policy: ReconnectPolicy = ReconnectPolicy()
    ) async -> Int32 {
        let client = GPSDClient(endpoint: endpoint, policy: policy).start()
        let timer = timeout.map { seconds in
            Task {
                try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                client.stop()
            }
        }
        defer { timer?.cancel() }
        var delivered = 0
        var lastProblem: GPSDError?
        for await event in client.events {
            switch event {
            case .fix(let fix, _):
                console.out(json ? line(fix).rendered() : text(fix))
                delivered += 1
                if let count, delivered >= count {
                    client.stop()
                    return 0
                }
                if count == nil { timer?.cancel() }
            case .noFix(let time):
                if json {
                    console.out(
                        JSONValue.object([
                            ("time", time.map { .string(UTCTime.format($0)) } ?? .null), ("mode", .number(1)),
                        ]).rendered())
                } else {
                    console.out("\(time.map(UTCTime.format) ?? "--")  NO FIX")
                }
            case .connected:
                lastProblem = nil
                console.err("runway: connected to gpsd at \(endpoint)")
            case .disconnected(let problem, let retryIn):
                lastProblem = problem
                console.err("runway: \(problem); retrying in \(Int(retryIn.rounded())) s")
            }
        }
        guard let timeout else { return 0 }
        let wanted = count.map { $0 > 1 ? "\($0) fixes" : "fix" } ?? "fix"
        let got = count != nil && delivered > 0 ? " (got \(delivered))" : ""
        let why = lastProblem.map { ": \($0)" } ?? ""
        console.err(
            "runway: no \(wanted) from gpsd at \(endpoint) within \(Self.seconds(timeout))\(got)\(why)")
        return 1
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    static func line(_ fix: Fix) -> JSONValue {
        .object([
            ("time", .string(UTCTime.format(fix.time))),
            ("lat", .number(fix.coordinate.latitude, places: 9)),
            ("lon", .number(fix.coordinate.longitude, places: 9)),
            ("accuracy_m", .number(fix.horizontalAccuracy, places: 2)),
            ("speed_mps", .number(fix.speed, places: 3)),
            ("track_deg", .number(fix.track, places: 1)),
            ("alt_m", .number(fix.altitude, places: 2)),
            ("mode", .number(Double(fix.mode))),
        ])
    }

    static func text(_ fix: Fix) -> String {
        let signal = SignalQuality(accuracy: fix.horizontalAccuracy)
        return "\(UTCTime.format(fix.time))  \(fix.coordinate.latitude), \(fix.coordinate.longitude)  "
            + "±\(fix.horizontalAccuracy.map { "\(Int($0.rounded())) m" } ?? "?")  \(signal.rawValue)  "
            + "\(fix.speed.map { "\(($0 * 100).rounded() / 100) m/s" } ?? "-- m/s")  mode \(fix.mode)"
    }
}
