import Foundation
import RunWayCore
import RunWayStore
import RunWayTestSupport
import Testing

/// Issue 28's viewer rows 7–10 in headless Chromium (Tests/Viewer/viewer_phone.py --fixes), on a
/// logbook made here: a run of 50:27 elapsed and 27:26 moving (the issue's row) whose splits
/// show equal paces and a 337 m tail faster than any kilometre, with 0.3 m of descent (drawn
/// "0 m", never "−0 m"); a second run that day without altitude; a third the next day.
@Suite("The offline viewer as the device means it: Time and Moving, marks, phone, keyboard, dots")
struct ViewerPhoneBrowserTests {
    static let start = 1_791_010_800.0  // 2026-10-03T07:00:00Z

    /// The first run: three kilometres at 330.2, 330.4 and 330.3 s (all "5:30"), heart rates
    /// 150.2, 150.4 and 151.6 (150, 150, 152), and a 337 m tail at 4:40 /km and 170 bpm.
    static func longRun() -> Flight {
        let paces = [330.2, 330.4, 330.3]
        let rates = [150.2, 150.4, 151.6]
        var splits = (0..<3).map { i in
            Split(
                order: i + 1, distance: 1000, movingDuration: paces[i], elapsedDuration: paces[i] + 400,
                elapsedEnd: Double(i + 1) * 900, heartRate: rates[i], cadence: nil, elevationGain: 2)
        }
        splits.append(
            Split(
                order: 4, distance: 337, movingDuration: 94.4, elapsedDuration: 327, elapsedEnd: 3_027,
                heartRate: 170, cadence: nil, elevationGain: 0))
        let fdr = (0..<600).map { i -> FDRSample in
            FDRSample(
                elapsed: Double(i * 5), distance: Double(i) * 5.6, pace: 330, heartRate: 150, cadence: 170,
                altitude: Double(i % 9), heading: 45, paused: false)
        }
        let route = Route(
            points: (0..<300).map { i -> RoutePoint in
                RoutePoint(
                    elapsed: Double(i * 10),
                    coordinate: Coordinate(
                        latitude: 37.52 + Double(i) * 4e-5, longitude: 127.12 + Double(i % 50) * 6e-5))
            })
        var flight = Flight(
            mission: nil, startTime: start, endTime: start + 3_027, distance: 3_337, elapsed: 3_027,
            movingTime: 1_646, splits: splits, droppedTail: 0, samples: fdr, route: route,
            simplifiedRoute: route,
            alerts: [
                AlertEpisode(
                    kind: .sinkRate, startElapsed: 600, endElapsed: 660,
                    coordinate: Coordinate(latitude: 37.521234, longitude: 127.123456))
            ], averageHeartRate: 151, averageCadence: nil)
        flight.elevation = FlightElevation(source: .barometer, loss: 0.3, minimum: 0, maximum: 6)
        return flight
    }

    /// A plain 2 km run `day` days after the first, at `hour` UTC, without altitude.
    static func shortRun(day: Int, hour: Double) -> Flight {
        let splits = (1...2).map { i in
            Split(
                order: i, distance: 1000, movingDuration: 300, elapsedDuration: 300,
                elapsedEnd: Double(i) * 300,
                heartRate: nil, cadence: nil, elevationGain: 0)
        }
        let begin = start + Double(day) * 86_400 + hour * 3_600
        // The next day's run had a goal of 10 minutes: of moving time, as the page must say.
        return Flight(
            mission: day == 1
                ? Mission(pace: .init(targetPace: 330, allowedDeviation: 15), goal: .duration(600)) : nil,
            startTime: begin,
            endTime: begin + 600, distance: 2_000, elapsed: 600,
            movingTime: 600, splits: splits, droppedTail: 0, samples: [], route: Route(points: []),
            simplifiedRoute: Route(points: []), alerts: [], averageHeartRate: nil, averageCadence: nil)
    }

    /// The three runs exported into `scratch`/stick/RUNWAY; the folder.
    static func export(into scratch: String) async throws -> String {
        try FileManager.default.createDirectory(atPath: scratch + "/stick", withIntermediateDirectories: true)
        let logbook = try Logbook(path: scratch + "/logbook.sqlite", journalCapacity: 0)
        for flight in [longRun(), shortRun(day: 0, hour: 10), shortRun(day: 1, hour: 0)] {
            let id = try logbook.begin(startTime: flight.startTime, mission: flight.mission, source: "test")
            try logbook.finish(flight: id, with: flight)
        }
        let export = try await RunWayBinary.run([
            "export", "--to", scratch + "/stick", "--logbook", scratch + "/logbook.sqlite", "--utc-offset",
            "0",
            "--format", "html", "--config", "/nonexistent",
        ])
        #expect(export.status == 0, "\(export.stderr)")
        return scratch + "/stick/RUNWAY"
    }

    @Test func timeAndMovingMarksPhoneKeyboardAndDots() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
            "Debian's chromium is needed: scripts/install-deps.sh test installs it")
        let scratch = NSTemporaryDirectory() + "runway-viewer-phone-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let folder = try await Self.export(into: scratch)
        let script = RunWayBinary.root.appendingPathComponent("Tests/Viewer/viewer_phone.py").path
        let result = try await RunWayBinary.shell(
            "python3 '\(script)' --fixes '\(folder)' 1 2026-10-03 2026-10")
        #expect(result.status == 0, "\(result.stderr)")
        let seen = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "\(result.stdout)")

        // Row 7: Moving as `runway logbook` shows it, and Time (elapsed) beside it, named apart.
        #expect(
            seen["logbook_head"] as? [String]
                == ["Date", "Mode", "Distance", "Moving", "Time", "Pace", "Gain", "Status"])
        let rows = try #require(seen["logbook_rows"] as? [[String]])
        #expect(rows.last?[3] == "27:26" && rows.last?[4] == "50:27", "\(rows)")
        #expect(seen["day_head"] as? [String] == ["Start", "Distance", "Moving", "Time", "Pace"])
        let day = try #require(seen["day_rows"] as? [[String]])
        #expect(day.first == ["07:00", "3.34 km", "27:26", "50:27", "8:13 /km"], "\(day)")
        // A time goal is a goal of moving time, and the mission line says so.
        #expect(
            seen["mission"] as? String
                == "Mission: 5:30 /km ±15 s for 10:00 moving — moving time reached ✓, average pace outside the band ✗",
            "\(seen["mission"] ?? "")")

        // Row 8: 0.3 m of descent is "0 m"; no altitude at all is "--".
        let totals = try #require(seen["totals"] as? [String])
        #expect(totals.contains("Descent0 m") && !totals.contains { $0.contains("−0") }, "\(totals)")
        // Equal displayed paces: no mark; BPM 150, 150, 152: ▲ on 152, ▼ on both 150s; the 337 m
        // tail (faster, higher) none.
        let splits = try #require(seen["splits"] as? [[String]])
        #expect(splits.map(\.first) == ["1 km", "2 km", "3 km", "337 m"])
        #expect(splits.map { $0[1] } == ["5:30 /km", "5:30 /km", "5:30 /km", "4:40 /km"], "\(splits)")
        #expect(splits.map { $0[2] } == ["150 ▼", "150 ▼", "152 ▲", "170"], "\(splits)")

        // Row 10: one dot per run on a day of two, none on a day of one (the seed's calendar).
        #expect(
            seen["dots"] as? [String: String] == ["2026-10-03": "••", "2026-10-04": ""],
            "\(seen["dots"] ?? "")")

        // Row 9: no sideways scroll at 360 and 390 px, every table and link inside the page,
        // lane labels drawn at 12 px or more.
        let widths = try #require(seen["widths"] as? [String: [String: Any]])
        for (width, views) in widths {
            for (name, fit) in views where name != "labels" {
                let fit = try #require(fit as? [String: Any])
                #expect(
                    (fit["scroll"] as? Double ?? .infinity) <= (fit["inner"] as? Double ?? 0),
                    "\(width) px \(name): \(fit)")
                #expect((fit["tables"] as? [String])?.isEmpty == true, "\(width) px \(name): \(fit)")
                #expect((fit["links"] as? [String])?.isEmpty == true, "\(width) px \(name): \(fit)")
            }
            let labels = try #require(views["labels"] as? [[Any]])
            #expect(
                labels.count >= 5 && labels.allSatisfy { ($0[1] as? Double ?? 0) >= 12 },
                "\(width): \(labels)")
        }
        // A phone turned from 844 to 390 px: the lanes are drawn again, their labels still ≥ 12 px.
        let turned = try #require(seen["turned_labels"] as? [[Any]])
        #expect(turned.count >= 5 && turned.allSatisfy { ($0[1] as? Double ?? 0) >= 12 }, "\(turned)")
        // Keyboard: Tab reaches a logbook row and Enter opens its flight; a calendar day of two
        // runs opens its list, whose row opens the flight.
        #expect(seen["row_focus"] is String, "\(seen)")
        let rowEnter = try #require(seen["row_enter"] as? [String])
        #expect(rowEnter[1] == "#/flight/\(rowEnter[0])")
        #expect(seen["cell_focus"] is String && seen["cell_enter"] as? String == "#/day/2026-10-03")
        #expect(seen["day_row_focus"] is String && seen["day_row_enter"] as? String == "#/flight/1")

        let requests = try #require(seen["requests"] as? [String])
        #expect(requests.allSatisfy { $0.hasPrefix("file://\(folder)/") }, "\(requests)")
        #expect((seen["exceptions"] as? [String])?.isEmpty == true, "\(seen["exceptions"] ?? "")")
    }

    /// The course over OpenStreetMap (viewer_phone.py --map): every tile request is answered by
    /// the test through the DevTools Fetch domain and every host name resolves to nothing, so
    /// nothing reaches the network. Off (the default): no request beyond the page's own files.
    /// On: the box's tiles at tile.openstreetmap.org/{z}/{x}/{y}.png, each inside the box, at most
    /// 3 × 3, the attribution with its link; moving the cursor asks nothing more; remembered
    /// across a reload; offline: says so and asks nothing; off again: nothing after a reload.
    @Test func theMapIsOptInRemembersTheChoiceAndSaysWhenItIsOffOrOffline() async throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"),
            "Debian's chromium is needed: scripts/install-deps.sh test installs it")
        let scratch = NSTemporaryDirectory() + "runway-viewer-map-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let folder = try await Self.export(into: scratch)
        let script = RunWayBinary.root.appendingPathComponent("Tests/Viewer/viewer_phone.py").path
        let result = try await RunWayBinary.shell("python3 '\(script)' --map '\(folder)' 1")
        #expect(result.status == 0, "\(result.stderr)")
        let seen = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "\(result.stdout)")
        func step(_ name: String) throws -> [String: Any] {
            try #require(seen[name] as? [String: Any], "\(name)")
        }
        let tilePattern = /https:\/\/tile\.openstreetmap\.org\/(\d+)\/(\d+)\/(\d+)\.png/

        let off = try step("off")
        #expect(off["checked"] as? Bool == false && (off["network"] as? [String])?.isEmpty == true, "\(off)")
        #expect(
            (off["status"] as? String)?.hasPrefix("Map off: the course is drawn alone and nothing leaves")
                == true)
        #expect((off["tiles"] as? [String])?.isEmpty == true && off["attribution"] is NSNull)

        for name in ["on", "reloaded", "phone"] {
            let on = try step(name)
            let tiles = try #require(on["tiles"] as? [String], "\(name)")
            #expect(on["checked"] as? Bool == true && on["stored"] as? String == "on", "\(name): \(on)")
            #expect(!tiles.isEmpty && tiles.count <= 9, "\(name): \(tiles)")
            #expect(tiles.allSatisfy { (try? tilePattern.wholeMatch(in: $0)) != nil }, "\(name): \(tiles)")
            #expect(Set(on["network"] as? [String] ?? []) == Set(tiles), "\(name): \(on)")
            #expect(on["inside"] as? Bool == true && on["route"] as? Bool == true)
            #expect(on["attribution"] as? String == "© OpenStreetMap contributors")
            #expect(on["link"] as? String == "https://www.openstreetmap.org/copyright")
        }
        let moved = try step("moved")
        #expect((moved["network"] as? [String])?.isEmpty == true, "\(moved)")
        #expect(moved["marker"] as? String != (try step("on"))["marker"] as? String)
        #expect((try step("phone"))["scroll"] as? [Double] == [390, 390])

        let offline = try step("offline")
        #expect(offline["checked"] as? Bool == true && (offline["network"] as? [String])?.isEmpty == true)
        #expect(
            offline["status"] as? String == "Map on, but this computer is offline: the course is drawn alone."
        )
        let offAgain = try step("off_again")
        #expect(offAgain["stored"] as? String == "off" && (offAgain["network"] as? [String])?.isEmpty == true)
        #expect(
            (seen["served"] as? [String])?.allSatisfy { $0.hasPrefix("https://tile.openstreetmap.org/") }
                == true)
        #expect((seen["exceptions"] as? [String])?.isEmpty == true, "\(seen["exceptions"] ?? "")")
    }
}
