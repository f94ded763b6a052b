import Foundation
import RunWayTestSupport
import Testing

/// The offline viewer as a runner opens it: `runway export` over the golden logbook (the demo
/// run on 3 October at 06:59 and 16:59 UTC, on the 6th, and its first 4 minutes on the 12th),
/// then Debian's chromium, headless, opens RUNWAY/index.html from file:// and is driven through
/// the DevTools protocol (Tests/Viewer/viewer_check.py). Screenshots of the four views at phone
/// and laptop widths are kept in .build/viewer-screenshots.
@Suite("The offline viewer in a real browser")
struct ViewerBrowserTests {
    /// The screenshots the README shows (docs/), from this test's laptop (1280 px) and phone
    /// (390 px) views.
    static let readmeScreenshots = [
        ("fdr-laptop.png", "viewer-fdr.png"), ("calendar-laptop.png", "viewer-calendar.png"),
        ("logbook-phone.png", "viewer-logbook-phone.png"), ("summary-phone.png", "viewer-summary-phone.png"),
    ]

    @Test func theFourViewsShowTheFlightsAndNothingIsFetched() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
            "Debian's chromium is needed: scripts/install-deps.sh test installs it")
        let logbook = GoldenOutputTests.logbook
        let stick = NSTemporaryDirectory() + "runway-viewer-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        let export = try await RunWayBinary.run([
            "export", "--to", stick, "--logbook", logbook, "--utc-offset", "0",
        ])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("viewer: open \(stick)/RUNWAY/index.html in a browser (4 flights"))
        let folder = stick + "/RUNWAY"
        // Flight 3 as an older build stored it, without samples: its FDR says why.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        let third = try #require(names.first { $0 == "runway-flight-20261006-065950.js" })
        var text = try String(contentsOfFile: folder + "/" + third, encoding: .utf8)
        let start = try #require(text.range(of: #""samples":{"#))
        let end = try #require(text.range(of: #","route":"#))
        text.replaceSubrange(
            start.lowerBound..<end.lowerBound,
            with: #""samples":{"t":[],"d":[],"pace":[],"hr":[],"spm":[],"alt":[],"hdg":[],"paused":[]}"#)
        text = text.replacingOccurrences(
            of: #""no_samples_reason":null"#,
            with: #""no_samples_reason":"it was stored without them (a salvage)""#)
        try text.write(toFile: folder + "/" + third, atomically: true, encoding: .utf8)

        let shots = RunWayBinary.root.appendingPathComponent(".build/viewer-screenshots").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let script = RunWayBinary.root.appendingPathComponent("Tests/Viewer/viewer_check.py").path
        let result = try await RunWayBinary.shell(
            "python3 '\(script)' '\(folder)' '\(shots)' 1 2026-10 4 3")
        #expect(result.status == 0, "\(result.stderr)")
        let seen = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "\(result.stdout)")

        // Logbook: most recent first, with the time of day (two runs on the 3rd).
        #expect(seen["logbook_ids"] as? [Int] == [4, 3, 2, 1])
        #expect(
            seen["logbook_dates"] as? [String] == [
                "2026-10-12 06:59", "2026-10-06 06:59", "2026-10-03 16:59", "2026-10-03 06:59",
            ])
        let rows = try #require(seen["logbook_rows"] as? [[String]])
        #expect(
            rows.last == [
                "2026-10-03 06:59", "mission", "5.18 km", "28:48", "29:35", "5:34 /km", "+20 m", "recorded",
            ])
        #expect(rows[0][1] == "free" && rows[0][6] == "0 m")

        // Calendar: the km of each day, a dot for each of the 3rd's two runs; the day opens its list.
        let days = try #require(seen["calendar_days"] as? [String: [String]])
        #expect(
            days == ["2026-10-03": ["10.4", "••"], "2026-10-06": ["5.2", ""], "2026-10-12": ["0.7", ""]])
        let dayList = try #require(seen["day_list"] as? [String: Any])
        #expect(dayList["hash"] as? String == "#/day/2026-10-03" && dayList["ids"] as? [Int] == [1, 2])
        #expect((seen["calendar_note"] as? String)?.hasPrefix("16.3 km in 4 runs") == true)
        // The week of the month's last run: the 12th alone, its bar the full width.
        #expect(seen["week_widths"] as? [String] == ["100%", "0%", "0%", "0%", "0%", "0%", "0%"])

        // Summary: six split rows, slowest 2 km ▼ and fastest 4 km ▲ on pace; no heart rate: --.
        let splits = try #require(seen["splits"] as? [[String]])
        #expect(splits.map(\.first) == ["1 km", "2 km", "3 km", "4 km", "5 km", "180 m"])
        #expect(splits[1][1].hasSuffix("▼") && splits[3][1].hasSuffix("▲"))
        #expect(splits.filter { $0[1].contains("▲") || $0[1].contains("▼") }.count == 2)
        // No heart rate: BPM, its maximum and SPM are --, and there is no time-in-zone bar.
        #expect(splits.allSatisfy { $0[2] == "--" && $0[3] == "--" && $0[4] == "--" })
        #expect(seen["zone_bar"] is NSNull)
        #expect((seen["totals"] as? [String])?.contains("Max HR--") == true, "\(seen["totals"] ?? "")")
        #expect((seen["mission"] as? String)?.contains("5:30 /km ±15 s over 5.00 km") == true)
        #expect((seen["alerts"] as? [String])?.count == 2)
        // A flight of one split: no markers, no legend.
        let single = try #require(seen["single_splits"] as? [[String]])
        #expect(single.count == 1 && single[0][0] == "712 m" && !single[0].joined().contains("▲"))
        #expect(seen["single_legend"] as? Bool == false)

        // FDR: the readout at 10:00; dragging the lanes moves it and the marker; → steps 5 s;
        // dragging on the course moves nothing.
        let at600 = try #require(seen["fdr_at_600"] as? [String: Any])
        let readout = try #require(at600["readout"] as? [String: String])
        #expect(readout["Elapsed"] == "10:00" && readout["BPM"] == "--" && readout["SPM"] == "--")
        let dragged = try #require(seen["fdr_after_drag"] as? [String: Any])
        let draggedReadout = try #require(dragged["readout"] as? [String: String])
        #expect(draggedReadout["Elapsed"] != "10:00" && draggedReadout["Distance"] != readout["Distance"])
        #expect(dragged["marker"] as? [String] != at600["marker"] as? [String])
        #expect((dragged["trail"] as? Int ?? 0) > 0)
        let stepped = try #require(seen["fdr_after_arrow"] as? [String: Any])
        let steppedHash = try #require(stepped["hash"] as? String)
        let draggedHash = try #require(dragged["hash"] as? String)
        #expect(
            Int(steppedHash.split(separator: "/").last!)! == Int(draggedHash.split(separator: "/").last!)! + 5
        )
        let mapDragged = try #require(seen["fdr_after_map_drag"] as? [String: Any])
        #expect(mapDragged["hash"] as? String == steppedHash)
        let lanes = try #require(seen["lanes"] as? [String])
        #expect(lanes.contains("BPM  (no values)") && lanes.contains("SPM  (no values)"))
        #expect(lanes.contains { $0.hasPrefix("ALT  0.0 m – ") })  // ALT's 0 is a value
        #expect((seen["hint"] as? String)?.contains("Drag along the lanes") == true)
        #expect(
            seen["no_samples"] as? String
                == "This flight has no Flight Data Recorder samples: it was stored without them (a salvage).")

        // Not one request beyond the folder's own files, and no script error.
        let requests = try #require(seen["requests"] as? [String])
        #expect(!requests.isEmpty && requests.allSatisfy { $0.hasPrefix("file://\(folder)/") }, "\(requests)")
        #expect((seen["exceptions"] as? [String])?.isEmpty == true, "\(seen["exceptions"] ?? "")")
        for view in ["logbook", "calendar", "summary", "fdr"] {
            for width in ["phone", "laptop"] {
                #expect(FileManager.default.fileExists(atPath: "\(shots)/\(view)-\(width).png"))
            }
        }
        // The README's pictures are these: RUNWAY_UPDATE_SCREENSHOTS=1 copies them into docs/.
        if ProcessInfo.processInfo.environment["RUNWAY_UPDATE_SCREENSHOTS"] == "1" {
            let docs = RunWayBinary.root.appendingPathComponent("docs").path
            for (shot, name) in Self.readmeScreenshots {
                try? FileManager.default.removeItem(atPath: "\(docs)/\(name)")
                try FileManager.default.copyItem(atPath: "\(shots)/\(shot)", toPath: "\(docs)/\(name)")
            }
        }
    }
}
