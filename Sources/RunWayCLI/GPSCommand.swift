import RunWayCore
import RunWayHardware

/// `runway gps [HOST:PORT] [--count N] [--json]`: the fixes exactly as the client delivers them
/// to the engine, for a maintainer wiring a board.
public enum GPSCommand {
    public static func run(endpoint: GPSDEndpoint, count: Int?, json: Bool, console: Console) async -> Int32 {
        let client = GPSDClient(endpoint: endpoint)
        var delivered = 0
        for await event in client.events {
            switch event {
            case .fix(let fix):
                console.out(json ? line(fix).rendered() : text(fix))
                delivered += 1
                if let count, delivered >= count {
                    client.stop()
                    return 0
                }
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
                console.err("runway: connected to gpsd at \(endpoint)")
            case .disconnected(let reason):
                console.err(
                    "runway: \(reason) — is gpsd running? (systemctl status gpsd); retrying every second")
            }
        }
        return 0
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
