import Foundation
import RunWayTestSupport
import Testing

/// `runway export` against the faults a stick brings: full, read-only, a `RUNWAY` that is a
/// symlink or a file, a runner's own file of the same name, pulled mid-export, and a damaged
/// logbook. A tmpfs of a few KiB in a private mount namespace stands in for a full stick.
@Suite("runway export: files written safely, faults said clearly")
struct ExportCommandTests {
    /// A logbook with the recorded demo trace and the same course a day later.
    static let logbook: String = {
        let path = NSTemporaryDirectory() + "runway-export-logbook-\(UUID().uuidString.prefix(8)).sqlite"
        let gps = try! RunWayBinary.fixture("demo-mission.gpsd.json")
        let nextDay = try! RunWayBinary.temporary(
            try! String(contentsOfFile: gps, encoding: .utf8).replacingOccurrences(
                of: "2026-10-03T", with: "2026-10-04T"), suffix: ".json")
        for trace in [gps, nextDay] {
            _ = try! RunWayBinary.run(["fly", "--gps", trace, "--save", "--logbook", path])
        }
        return path
    }()

    static func directory() -> String {
        let path = NSTemporaryDirectory() + "runway-stick-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func export(_ destination: String, _ extra: [String] = []) async throws -> RunWayBinary.Output {
        try await RunWayBinary.run(
            ["export", "--to", destination, "--logbook", logbook, "--config", "/nonexistent"] + extra)
    }

    /// The folder's files (not the manifest), with their bytes.
    static func files(_ destination: String) -> [String: Data] {
        let folder = destination + "/RUNWAY"
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            files[name] = FileManager.default.contents(atPath: folder + "/" + name)
        }
        return files
    }

    /// What a clean export writes, byte for byte.
    static let reference: [String: Data] = {
        let destination = directory()
        _ = try! RunWayBinary.run(
            ["export", "--to", destination, "--logbook", logbook, "--config", "/nonexistent"])
        return files(destination)
    }()

    static func sha(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

    @Test func writesEveryFormatOfEveryFlightAndARepeatWritesNothing() async throws {
        let destination = Self.directory()
        let first = try await Self.export(destination, ["--verify", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        #expect((object["written"] as? [Any])?.count == 6)
        // Named by the start's local date and time (UTC without a configured zone here) and km.
        let names = Set(Self.files(destination).keys)
        #expect(
            names == [
                ".runway-manifest", "2026-10-03-0659-5.2km.fit", "2026-10-03-0659-5.2km.gpx",
                "2026-10-03-0659-5.2km.tcx", "2026-10-04-0659-5.2km.fit", "2026-10-04-0659-5.2km.gpx",
                "2026-10-04-0659-5.2km.tcx",
                // The offline viewer: its page, scripts and style, the logbook, a file per flight.
                "index.html", "runway-viewer.js", "runway-viewer.css", "runway-map.js", "runway-logbook.js",
                "runway-flight-20261003-065950.js", "runway-flight-20261004-065950.js",
            ])
        let viewer = try #require(object["viewer"] as? [String: Any])
        #expect(viewer["flights"] as? Double == 2 && viewer["files_written"] as? Double == 7)
        let again = try await Self.export(destination, ["--json"])
        let repeated = try #require(
            try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(again.status == 0 && (repeated["written"] as? [Any])?.isEmpty == true)
        #expect(repeated["already_exported"] as? Double == 6)
        // A repeat rewrites nothing of the viewer either: every byte is already there.
        #expect((repeated["viewer"] as? [String: Any])?["files_written"] as? Double == 0)
        let text = try await Self.export(destination)
        #expect(text.stdout.contains("0 files written, 6 already on the stick"))
        #expect(text.stdout.contains("viewer: open \(destination)/RUNWAY/index.html in a browser (2 flights"))
        let only = try await Self.export(Self.directory(), ["--format", "gpx", "--since", "2026-10-04"])
        #expect(only.status == 0 && only.stdout.contains("1 file written"), "\(only.stdout)")
        #expect(only.stdout.contains("2026-10-04-0659-5.2km.gpx"))
        // File names follow the configured time zone.
        let config = try RunWayBinary.temporary(#"{"time_zone": "Asia/Seoul"}"#, suffix: ".json")
        let seoul = Self.directory()
        let local = try await RunWayBinary.run([
            "export", "--to", seoul, "--logbook", Self.logbook, "--config", config, "--format", "fit",
        ])
        #expect(local.status == 0 && local.stdout.contains("2026-10-03-1559-5.2km.fit"), "\(local.stdout)")
    }

    @Test func badOptionsAreUsageErrors() async throws {
        let destination = Self.directory()
        #expect(try await Self.export(destination, ["--format", "kml"]).status == 2)
        #expect(try await Self.export(destination, ["--since", "yesterday"]).status == 2)
        #expect(try await RunWayBinary.run(["export"]).status == 2)
        let missing = try await RunWayBinary.run([
            "export", "--to", destination + "/nowhere", "--logbook", Self.logbook, "--config", "/nonexistent",
        ])
        #expect(missing.status == 1 && missing.stderr.contains("cannot open"))
    }

    @Test func aRunnersOwnFileOfTheSameNameIsNeverOverwritten() async throws {
        let destination = Self.directory()
        try FileManager.default.createDirectory(
            atPath: destination + "/RUNWAY", withIntermediateDirectories: true)
        let mine = destination + "/RUNWAY/2026-10-03-0659-5.2km.gpx"
        try Data("my own notes".utf8).write(to: URL(fileURLWithPath: mine))
        let result = try await Self.export(destination)
        #expect(result.status == 0)
        #expect(result.stderr.contains("2026-10-03-0659-5.2km.gpx: it was left alone"))
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "my own notes")
        #expect(
            Self.files(destination)["2026-10-03-0659-5.2km-2.gpx"]
                == Self.reference["2026-10-03-0659-5.2km.gpx"])
    }

    @Test func aRunwayThatIsASymlinkOrAFileIsRefused() async throws {
        let destination = Self.directory()
        let elsewhere = Self.directory()
        try FileManager.default.createSymbolicLink(
            atPath: destination + "/RUNWAY", withDestinationPath: elsewhere)
        let linked = try await Self.export(destination)
        #expect(linked.status == 1 && linked.stderr.contains("is a symbolic link"), "\(linked.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        let plain = Self.directory()
        try Data("x".utf8).write(to: URL(fileURLWithPath: plain + "/RUNWAY"))
        let file = try await Self.export(plain)
        #expect(file.status == 1 && file.stderr.contains("is a file, not a folder"), "\(file.stderr)")
        // A symlink planted where a file will go is not followed either.
        let planted = Self.directory()
        try FileManager.default.createDirectory(
            atPath: planted + "/RUNWAY", withIntermediateDirectories: true)
        let target = elsewhere + "/victim"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(
            atPath: planted + "/RUNWAY/2026-10-03-0659-5.2km.fit", withDestinationPath: target)
        #expect(try await Self.export(planted).status == 0)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep")
    }

    @Test func aFIFOInTheFolderIsSaidNotWaitedOn() async throws {
        let destination = Self.directory()
        let folder = destination + "/RUNWAY"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(mkfifo(folder + "/.runway-manifest", 0o644) == 0)
        #expect(mkfifo(folder + "/2026-10-03-0659-5.2km.tcx", 0o644) == 0)
        let json = try await Self.export(destination, ["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let left = try #require(object["left_alone"] as? [[String: String]])
        #expect(left.map { $0["file"] } == [".runway-manifest", "2026-10-03-0659-5.2km.tcx"])
        #expect(left.allSatisfy { $0["reason"]?.contains("is a FIFO, not a regular file") == true })
        #expect((object["written"] as? [Any])?.count == 6)
        #expect(object["renamed_around"] as? [String] == ["2026-10-03-0659-5.2km.tcx"])
        let text = try await Self.export(destination)
        #expect(text.status == 0)
        #expect(
            text.stderr.contains("RUNWAY/.runway-manifest is a FIFO, not a regular file: it was not read"))
    }

    /// Runs the export on a tmpfs stick of `kilobytes`; nil where no namespace can be made.
    static func onAStick(
        kilobytes: Int, readOnly: Bool = false, seed: String? = nil
    ) async throws -> (result: RunWayBinary.Output, contents: String)? {
        let mount = Self.directory()
        let out = Self.directory()
        let script = RunWayBinary.root.appendingPathComponent("Tests/Fixtures/on-a-stick.sh").path
        let result = try await RunWayBinary.shell(
            "\"\(script)\" \(kilobytes) \(readOnly ? "ro" : "rw") \"\(seed ?? "/nonexistent")\" \"\(mount)\" "
                + "\"\(out)\" -- \"$RUNWAY\" export --to \"\(mount)\" --logbook \"\(logbook)\" --config /nonexistent"
        )
        if result.status == 77 {
            print("export stick tests: not exercised, \(result.stderr)")
            return nil
        }
        return (result, out)
    }

    @Test func aFullStickIsSaidAndLeavesNothingHalfWrittenNorTouchesTheLogbook() async throws {
        let before = Self.sha(Self.logbook)
        // Room for the first FIT file (49 KB: a point a second from the smoothed route) and little more.
        guard let (result, contents) = try await Self.onAStick(kilobytes: 64) else { return }
        #expect(result.status == 1)
        #expect(result.stderr.contains("the stick is full"), "\(result.stderr)")
        let files = Self.files(contents)
        #expect(!files.keys.contains { $0.hasPrefix(".runway-partial") }, "\(files.keys)")
        for (name, bytes) in files where name != ".runway-manifest" {
            #expect(bytes == Self.reference[name], "\(name) is not whole")
        }
        #expect(files["2026-10-03-0659-5.2km.fit"] != nil)
        #expect(Self.sha(Self.logbook) == before)
        // With room, the next export completes it: everything, once.
        let seed = Self.directory()
        try FileManager.default.copyItem(atPath: contents + "/RUNWAY", toPath: seed + "/RUNWAY")
        guard let (second, rest) = try await Self.onAStick(kilobytes: 8192, seed: seed) else { return }
        #expect(second.status == 0, "\(second.stderr)")
        var final = Self.files(rest)
        final[".runway-manifest"] = nil
        var expected = Self.reference
        expected[".runway-manifest"] = nil
        #expect(final == expected)
    }

    @Test func aReadOnlyStickIsSaid() async throws {
        guard let (result, _) = try await Self.onAStick(kilobytes: 1024, readOnly: true) else { return }
        #expect(
            result.status == 1 && result.stderr.contains("read-only: nothing was written"), "\(result.stderr)"
        )
    }

    /// The stick pulled at a random moment: the export process dies (SIGKILL) mid-write. No file
    /// is ever partial under its final name, and the next export completes the set.
    @Test func aStickPulledMidExportNeverShowsAPartialFileAndTheNextExportCompletesIt() async throws {
        var cutShort = 0
        for iteration in 0..<16 {
            let destination = Self.directory()
            let delay = Double(iteration) * 0.008
            let cut = try await RunWayBinary.shell(
                "\"$RUNWAY\" export --to \"\(destination)\" --logbook \"\(Self.logbook)\" --config /nonexistent "
                    + ">/dev/null 2>&1 & pid=$!; sleep \(delay); kill -9 $pid 2>/dev/null; wait $pid; true")
            #expect(cut.status == 0)
            let left = Self.files(destination).filter { !$0.key.hasPrefix(".") }
            for (name, bytes) in left {
                #expect(bytes == Self.reference[name], "iteration \(iteration): \(name) is partial")
            }
            if left.count < Self.reference.count - 1 { cutShort += 1 }
            let again = try await Self.export(destination)
            #expect(again.status == 0, "\(again.stderr)")
            var final = Self.files(destination)
            final[".runway-manifest"] = nil
            var expected = Self.reference
            expected[".runway-manifest"] = nil
            #expect(final == expected, "iteration \(iteration)")
        }
        // The cuts did land mid-export (not all before it began or after it ended).
        #expect(cutShort > 0)
        print("export pulled-stick test: \(cutShort) of 16 cuts left an export unfinished")
    }

    @Test func aDamagedLogbookExportsWhatSalvageCanRead() async throws {
        let damaged = NSTemporaryDirectory() + "runway-damaged-export-\(UUID().uuidString.prefix(8)).sqlite"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.logbook))
        try bytes.prefix(bytes.count * 3 / 4 / 4096 * 4096).write(to: URL(fileURLWithPath: damaged))
        let before = Self.sha(damaged)
        let destination = Self.directory()
        let result = try await RunWayBinary.run([
            "export", "--to", destination, "--logbook", damaged, "--config", "/nonexistent", "--format",
            "fit",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("the logbook is damaged: exporting the"), "\(result.stderr)")
        #expect(Self.files(destination).keys.contains { $0.hasSuffix(".fit") })
        #expect(Self.sha(damaged) == before)
        // The scratch copy salvage read into is gone.
        let left = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix("runway-export-salvage-") }
        #expect(left.isEmpty, "\(left)")
    }
}
