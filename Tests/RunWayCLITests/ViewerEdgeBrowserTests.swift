import Foundation
import RunWayCore
import RunWayStore
import RunWayTestSupport
import Testing

/// The viewer on the flights at the edges of what a logbook holds: one FDR sample, none, one
/// route point, none, and 300 000 route points (a 24-hour flight at 1 Hz counts ~86 400 fixes;
/// the old drawing stopped near 125 000, where `Math.min.apply` runs out of stack). Each flight's
/// summary, FDR and course are opened in headless Chromium (Tests/Viewer/viewer_check.py --edges).
@Suite("The offline viewer at the edges: one sample, no samples, one route point, 300 000")
struct ViewerEdgeBrowserTests {
    static let start = 1_791_010_800.0  // 2026-10-03T07:00:00Z

    /// A recorded flight (150 m) with `samples` FDR samples 5 s apart and `points` route points
    /// 1 s apart on a wiggle north-east of Seoul's Olympic Park.
    static func flight(samples: Int, points: Int, day: Int) -> Flight {
        let fdr = (0..<samples).map { i -> FDRSample in
            let t = Double(i * 5)
            return FDRSample(
                elapsed: t, distance: t * 3, pace: 333, heartRate: 150, cadence: 170,
                altitude: Double(i % 7), heading: 45, paused: false)
        }
        let route = Route(
            points: (0..<points).map { i -> RoutePoint in
                let latitude = 37.52 + Double(i) * 1e-6
                let longitude = 127.12 + Double(i % 100) * 1e-5
                return RoutePoint(
                    elapsed: Double(i), coordinate: Coordinate(latitude: latitude, longitude: longitude))
            })
        let elapsed = Double(max(samples * 5, points, 1))
        return Flight(
            mission: nil, startTime: start + Double(day) * 86_400,
            endTime: start + Double(day) * 86_400 + elapsed,
            distance: 150, elapsed: elapsed, movingTime: elapsed, splits: [], droppedTail: 150, samples: fdr,
            route: route, simplifiedRoute: route, alerts: [], averageHeartRate: 150, averageCadence: 170)
    }

    @Test func everyViewDrawsWithoutAScriptError() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
            "Debian's chromium is needed: scripts/install-deps.sh test installs it")
        let scratch = NSTemporaryDirectory() + "runway-viewer-edges-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: scratch + "/stick", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let logbook = try Logbook(path: scratch + "/logbook.sqlite", journalCapacity: 0)
        let cases: [(name: String, samples: Int, points: Int)] = [
            ("one sample", 1, 2), ("no samples", 0, 50), ("one route point", 10, 1),
            ("no route points", 10, 0), ("300 000 route points", 60_000, 300_000),
        ]
        var ids: [String: Int64] = [:]
        for (day, c) in cases.enumerated() {
            let flight = Self.flight(samples: c.samples, points: c.points, day: day)
            let id = try logbook.begin(startTime: flight.startTime, mission: nil, source: "test")
            try logbook.finish(flight: id, with: flight)
            ids[c.name] = id
        }
        let export = try await RunWayBinary.run([
            "export", "--to", scratch + "/stick", "--logbook", scratch + "/logbook.sqlite", "--utc-offset",
            "0",
            "--format", "html", "--config", "/nonexistent",
        ])
        #expect(export.status == 0, "\(export.stderr)")
        let script = RunWayBinary.root.appendingPathComponent("Tests/Viewer/viewer_check.py").path
        let list = cases.map { "\(ids[$0.name]!)" }.joined(separator: " ")
        let result = try await RunWayBinary.shell(
            "python3 '\(script)' --edges '\(scratch)/stick/RUNWAY' \(list)")
        #expect(result.status == 0, "\(result.stderr)")
        let seen = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
                as? [String: [String: [String: Any]]],
            "\(result.stdout)")
        for c in cases {
            let flight = try #require(seen["\(ids[c.name]!)"], "\(c.name)")
            for view in ["summary", "fdr"] {
                let shown = try #require(flight[view], "\(c.name) \(view)")
                #expect(shown["drawn"] as? Bool == true, "\(c.name): the \(view) was not drawn")
                #expect((shown["exceptions"] as? [String])?.isEmpty == true, "\(c.name) \(view): \(shown)")
                #expect((shown["broken"] as? [String])?.isEmpty == true, "\(c.name) \(view): \(shown)")
            }
            #expect(flight["summary"]?["totals"] as? Int ?? 0 >= 9, "\(c.name)")
            let fdr = try #require(flight["fdr"])
            // The course: drawn from one route point on (the marker on it), a note without any.
            #expect(fdr["course"] as? Bool == (c.points > 0), "\(c.name): \(fdr)")
            if c.points > 0 {
                #expect(fdr["route"] as? Int == c.points, "\(c.name)")
                #expect(fdr["marker"] is String, "\(c.name)")
            } else {
                #expect(fdr["course_note"] as? String == "No route was stored for this flight.")
            }
            if c.samples > 0 {
                #expect(fdr["lanes"] as? Int == 4, "\(c.name): \(fdr)")
                #expect((fdr["after_arrow"] as? String)?.hasPrefix("#/flight/") == true, "\(c.name)")
            } else {
                #expect(
                    (fdr["no_samples"] as? String)?.hasPrefix("This flight has no Flight Data Recorder")
                        == true)
            }
        }
    }
}
