import Foundation
import RunWayCore
import RunWayStore
import RunWayTestSupport
import Testing

/// The viewer's time in heart-rate zones, in headless Chromium (Tests/Viewer/viewer_check.py
/// --zones): a flight stored with zones (made here, as the engine would hand it over) has a bar
/// of five parts as wide as their shares and a table of zone, bpm range, minutes and share,
/// readable at a phone's 390 px; its totals and splits say the maximum heart rate. A flight
/// without heart rate has no bar and says --.
@Suite("The offline viewer's time in zone in a real browser")
struct ViewerZoneBrowserTests {
    @Test func theZoneBarShowsEachZonesShareAndFitsAPhone() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
            "Debian's chromium is needed: scripts/install-deps.sh test installs it")
        let scratch = NSTemporaryDirectory() + "runway-viewer-zones-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: scratch + "/stick", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let logbook = try Logbook(path: scratch + "/logbook.sqlite", journalCapacity: 0)
        for heartRate in [true, false] {
            let flight = HeartRateReportTests.flight(heartRate: heartRate, day: heartRate ? 0 : 1)
            let id = try logbook.begin(startTime: flight.startTime, mission: nil, source: "test")
            try logbook.finish(flight: id, with: flight)
        }
        let export = try await RunWayBinary.run([
            "export", "--to", scratch + "/stick", "--logbook", scratch + "/logbook.sqlite", "--utc-offset",
            "0",
            "--format", "html", "--config", "/nonexistent",
        ])
        #expect(export.status == 0, "\(export.stderr)")
        let shots = RunWayBinary.root.appendingPathComponent(".build/viewer-screenshots").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let script = RunWayBinary.root.appendingPathComponent("Tests/Viewer/viewer_check.py").path
        let result = try await RunWayBinary.shell(
            "python3 '\(script)' --zones '\(scratch)/stick/RUNWAY' '\(shots)' 1 2")
        #expect(result.status == 0, "\(result.stderr)")
        let seen = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "\(result.stdout)")
        #expect((seen["exceptions"] as? [String])?.isEmpty == true, "\(seen["exceptions"] ?? "")")
        let zoned = try #require(seen["1"] as? [String: [String: Any]])
        for width in ["laptop", "phone"] {
            let view = try #require(zoned[width], "\(width)")
            let zones = try #require(view["zones"] as? [String: Any], "\(width): no zone bar")
            // 60, 250, 1 020, 300 and 0 s of 1 630: parts as wide as their shares, a label where
            // there is room for one.
            let parts = try #require(zones["parts"] as? [[Any]])
            #expect(parts.map { $0[0] as? Int } == [1, 2, 3, 4, 5])
            #expect(parts.map { $0[1] as? String } == ["3.7%", "15.3%", "62.6%", "18.4%", "0%"])
            #expect(parts.map { $0[2] as? String } == ["", "Z2", "Z3", "Z4", ""])
            #expect(
                zones["label"] as? String == "Time in zone: Z1 1 min, Z2 4 min, Z3 17 min, Z4 5 min, Z5 0 min"
            )
            #expect(
                zones["rows"] as? [[String]] == [
                    ["Z1", "95–114 bpm", "1 min", "4 %"], ["Z2", "114–133 bpm", "4 min", "15 %"],
                    ["Z3", "133–152 bpm", "17 min", "63 %"], ["Z4", "152–171 bpm", "5 min", "18 %"],
                    ["Z5", "171–190 bpm", "0 min", "0 %"],
                ])
            #expect(zones["heading"] as? String == "Time in zone (% of max heart rate)")
            #expect(zones["tab_stops"] as? Int == 0)  // nothing to operate, nothing to tab to
            let totals = view["totals"] as? [String] ?? []
            #expect(totals.contains("Max HR184 bpm"), "\(totals)")
            #expect(view["split_head"] as? [String] == ["Split", "Pace", "BPM", "Max", "SPM", "Gain", "At"])
            let splits = view["splits"] as? [[String]] ?? []
            #expect(splits.map { $0[3] } == ["172", "184"], "\(splits)")
        }
        // At 390 px the bar spans the page and nothing is wider than the screen.
        let phone = try #require(zoned["phone"]?["zones"] as? [String: Any])
        let viewport = try #require(phone["viewport"] as? Double)
        #expect(viewport <= 390 && (phone["page_width"] as? Double ?? .infinity) <= viewport, "\(phone)")
        #expect((phone["bar_width"] as? Double ?? 0) >= viewport - 40, "\(phone)")
        #expect((phone["bar_height"] as? Double ?? 0) >= 20 && (phone["row_font_px"] as? Double ?? 0) >= 12)

        let bare = try #require(seen["2"] as? [String: [String: Any]])
        #expect(bare["laptop"]?["zones"] is NSNull)
        #expect((bare["laptop"]?["totals"] as? [String])?.contains("Max HR--") == true)
        let requests = try #require(seen["requests"] as? [String])
        #expect(requests.allSatisfy { $0.hasPrefix("file://\(scratch)/stick/RUNWAY/") }, "\(requests)")
    }
}
