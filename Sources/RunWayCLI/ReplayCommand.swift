import RunWayCore
import RunWayStore

/// `runway replay ID --at MM:SS`: the Flight Data Recorder at a moment (SPEC "Flight Data
/// Recorder"): elapsed, distance, pace, BPM, SPM, ALT, heading and the position interpolated
/// from the route, and the four lanes — PACE, BPM, SPM, ALT — as sparklines on one time axis with
/// a cursor at the moment. A missing value breaks its lane; ALT's 0 is a value; the pace axis is
/// not inverted (a taller bar is a slower pace).
public enum ReplayCommand {
    static let width = 60
    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    public static func run(path: String, id: Int64, at text: String?, json: Bool, console: Console)
        throws(CLIError) -> Int32
    {
        let logbook = try LogbookCommands.open(path, access: .readOnly, console: console)
        let logged = try LogbookCommands.answer(for: id, in: path) { () throws(StoreError) in
            try logbook.flight(id: id)
        }
        LogbookCommands.sayDamage(logbook, console: console)
        let flight = logged.flight
        guard !flight.samples.isEmpty else {
            throw CLIError(
                "flight \(id) has no FDR samples: "
                    + (logged.status == .flying
                        ? "it is still in the air (samples are stored at touchdown)"
                        : "it was stored without them (its derived data came from an older build or a salvage)")
            )
        }
        var at = flight.elapsed
        if let text {
            guard let seconds = parseElapsed(text), seconds <= flight.elapsed else {
                throw .usage(
                    "--at takes a moment of the flight as MM:SS or H:MM:SS, up to \(UTCTime.duration(flight.elapsed)), not \"\(text)\""
                )
            }
            at = seconds
        }
        let sample = flight.samples.last { $0.elapsed <= at } ?? flight.samples[0]
        let position = flight.route.position(at: at)
        if json {
            console.out(
                JSONValue.object(
                    [
                        ("id", .number(Double(id))), ("at_s", .number(at, places: 1)),
                        ("sample_elapsed_s", .number(sample.elapsed, places: 1)),
                    ] + FlightReport.readings(sample) + [
                        ("lat", .number(position?.latitude, places: 7)),
                        ("lon", .number(position?.longitude, places: 7)),
                        ("paused", .bool(sample.paused)),
                    ]
                ).rendered())
            return 0
        }
        console.out(
            "Flight #\(id) at \(UTCTime.duration(at)) of \(UTCTime.duration(flight.elapsed))"
                + (sample.paused ? "  PAUSED" : ""))
        console.out(
            "  DIST \(FlightReport.km(sample.distance)) km  PACE \(Pace.format(sample.pace)) /km  "
                + "BPM \(FlightReport.whole(sample.heartRate))  SPM \(FlightReport.whole(sample.cadence))  "
                + "ALT \(sample.altitude.map { String(format: "%.1f", $0) } ?? "--") m  "
                + "HDG \(sample.heading.map { UTCTime.pad(Int($0.rounded()) % 360, 3) } ?? "---")")
        if let position {
            console.out(String(format: "  POS  %.6f, %.6f", position.latitude, position.longitude))
        }
        console.out("")
        let lanes: [(String, (FDRSample) -> Double?)] = [
            ("PACE", { $0.pace }), ("BPM", { $0.heartRate }), ("SPM", { $0.cadence }),
            ("ALT", { $0.altitude }),
        ]
        for (name, value) in lanes {
            console.out(
                "  \(FlightReport.padRight(name, 5))"
                    + sparkline(flight.samples, value, elapsed: flight.elapsed))
        }
        let cursor = min(width - 1, Int(Double(width) * at / max(flight.elapsed, 1)))
        console.out("       " + String(repeating: " ", count: cursor) + "^ \(UTCTime.duration(at))")
        return 0
    }

    /// `12:34` or `1:02:03` as seconds.
    static func parseElapsed(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.dropFirst().allSatisfy({ $0.count == 2 }) else {
            return nil
        }
        var seconds = 0
        for (i, part) in parts.enumerated() {
            guard let n = DecimalText.whole(part), n >= 0, i == 0 || n < 60 else { return nil }
            seconds = seconds * 60 + n
        }
        return Double(seconds)
    }

    /// One lane: `width` columns over the flight, each the mean of its samples' values, scaled
    /// between the lane's lowest and highest; a column without a value is a gap.
    static func sparkline(_ samples: [FDRSample], _ value: (FDRSample) -> Double?, elapsed: Double) -> String
    {
        var sums = [Double](repeating: 0, count: width)
        var counts = [Int](repeating: 0, count: width)
        for sample in samples {
            guard let v = value(sample), v.isFinite else { continue }
            let column = min(width - 1, Int(Double(width) * sample.elapsed / max(elapsed, 1)))
            sums[column] += v
            counts[column] += 1
        }
        let means = (0..<width).map { counts[$0] > 0 ? sums[$0] / Double(counts[$0]) : nil }
        let present = means.compactMap { $0 }
        guard let low = present.min(), let high = present.max() else { return "(no values)" }
        let span = high - low
        let line = String(
            means.map { mean -> Character in
                guard let mean else { return " " }
                let step = span > 1e-9 ? Int((mean - low) / span * Double(levels.count - 1)) : 0
                return levels[min(levels.count - 1, step)]
            })
        return line + "  \(format(low))–\(format(high))"
    }

    private static func format(_ value: Double) -> String {
        abs(value) >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
    }
}
