import Foundation
import RunWayCore
import RunWayHardware
import Testing

@testable import RunWayCLI

/// Bad input gets a clear error and loses nothing; nothing crashes, hangs or grows without bound.
@Suite("runway under hostile input: streams, pipes, output failures, numbers, missions")
struct HostileCLITests {
    static var demo: String { get throws { try RunWayBinary.fixture("demo-mission.gpsd.json") } }

    // MARK: Standard input, pipes and FIFOs

    @Test func theTraceReadsFromStandardInputAPipeAndAFIFO() throws {
        let direct = try RunWayBinary.run(["fly", "--gps", try Self.demo, "--json"])
        #expect(direct.status == 0)
        let piped = try RunWayBinary.shell("cat '\(try Self.demo)' | \"$RUNWAY\" fly --gps - --json")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == direct.stdout)
        let devStdin = try RunWayBinary.shell("\"$RUNWAY\" fly --gps /dev/stdin --json < '\(try Self.demo)'")
        #expect(devStdin.stdout == direct.stdout)
        let fifo = NSTemporaryDirectory() + "runway-fifo-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let viaFIFO = try RunWayBinary.shell(
            "mkfifo '\(fifo)' && (cat '\(try Self.demo)' > '\(fifo)' &) && \"$RUNWAY\" fly --gps '\(fifo)' --json"
        )
        #expect(viaFIFO.stdout == direct.stdout)
    }

    @Test func bothFilesCannotReadStandardInput() throws {
        let result = try RunWayBinary.run(["fly", "--gps", "-", "--pressure", "-"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot both read standard input"))
    }

    @Test func aCompressedOrBinaryFileIsRefusedAtOnce() throws {
        let gz = NSTemporaryDirectory() + "runway-\(UUID().uuidString).json.gz"
        defer { try? FileManager.default.removeItem(atPath: gz) }
        let result = try RunWayBinary.shell(
            "gzip -c '\(try Self.demo)' > '\(gz)'; \"$RUNWAY\" fly --gps '\(gz)'")
        #expect(result.status == 1)
        #expect(result.stderr.contains("gzip-compressed"))
    }

    // MARK: Pressure files that do not cover the run

    @Test func aPressureFileFromAnotherTimeIsSaid() throws {
        var rows = ["time,pressure_pa"]
        let start = UTCTime.parse("2026-10-02T07:00:00Z")!  // the day before
        for i in 0..<50 { rows.append("\(UTCTime.format(start + Double(i))),101300") }
        let csv = try RunWayBinary.temporary(rows.joined(separator: "\n"), suffix: ".csv")
        let result = try RunWayBinary.run(["fly", "--gps", try Self.demo, "--pressure", csv])
        #expect(result.status == 0)
        #expect(result.stderr.contains("none of its 50 pressure samples falls within the run"))
        #expect(result.stdout.contains("and 0 pressure samples"))
    }

    @Test func aPressureFileThatOverlapsInPartCountsWhatFellOutside() throws {
        let fixtureCSV = try RunWayBinary.fixture("demo-mission.pressure.csv")
        let text = try String(contentsOfFile: fixtureCSV, encoding: .utf8)
        var rows = text.split(whereSeparator: \.isNewline).map(String.init)
        let header = rows.removeFirst()
        let first = UTCTime.parse(String(rows[0].split(separator: ",")[0]))!
        let early = (1...30).reversed().map { "\(UTCTime.format(first - 3600 - Double($0))),101300" }
        let csv = try RunWayBinary.temporary(
            ([header] + early + rows).joined(separator: "\n"), suffix: ".csv")
        let result = try RunWayBinary.run(["fly", "--gps", try Self.demo, "--pressure", csv])
        #expect(result.status == 0)
        #expect(result.stderr.contains("30 of its"))
        #expect(result.stderr.contains("30 before, 0 after — not used"))
    }

    // MARK: Control characters

    @Test func controlCharactersFromAFileAreEscaped() throws {
        let gps = try RunWayBinary.temporary(
            #"{"class":"TPV","mode":3,"time":"\u001b[2J\u001b]0;owned\u0007","lat":1,"lon":2}"# + "\n",
            suffix: ".json")
        let result = try RunWayBinary.run(["fly", "--gps", gps])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(result.stderr.contains("\\x1B[2J"))
        #expect(
            Diagnostic(file: "a\nb", line: 1, message: "x\r\u{9B}").description == "a\\x0Ab:1: x\\x0D\\x9B")
    }

    // MARK: Standard output that fails

    @Test(arguments: [
        ["simulate", "--scenario", "demo"], ["demo", "--speed", "max"], ["fly", "--gps", "DEMO"],
        ["logbook", "--logbook", "LOGBOOK"],
    ])
    func aFullDeviceIsOneSentenceAndAClosedPipeEndsQuietly(_ arguments: [String]) throws {
        let logbook = NSTemporaryDirectory() + "runway-full-\(UUID().uuidString).sqlite"
        _ = try RunWayBinary.run(["fly", "--gps", try Self.demo, "--save", "--logbook", logbook])
        let args = try arguments.map { $0 == "DEMO" ? try Self.demo : $0 == "LOGBOOK" ? logbook : $0 }
            .map { "'\($0)'" }.joined(separator: " ")
        let full = try RunWayBinary.shell("\"$RUNWAY\" \(args) > /dev/full")
        #expect(full.status == 1)
        #expect(full.stderr.contains("runway: cannot write to standard output: No space left on device"))
        #expect(full.stderr.split(separator: "\n").count <= 3)
        let closed = try RunWayBinary.shell("set -o pipefail; \"$RUNWAY\" \(args) | head -c 1 >/dev/null")
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(closed.stderr.isEmpty || arguments[0] == "fly")  // fly's own notes go to stderr
        try? FileManager.default.removeItem(atPath: logbook)
    }

    // MARK: Numbers

    @Test(arguments: [
        ["demo", "--speed", "1e308"], ["demo", "--speed", "0x10"], ["demo", "--speed", "inf"],
        ["simulate", "--scenario", "demo", "--lead-in", "100000000"],
        ["gps", "--count", "99999999999999999999"],
        ["gps", "--timeout", "nan"], ["baro", "--bus", "-1"], ["buzz", "split", "--line", "1e3"],
        ["logbook", "--logbook", "x", "--utc-offset", "1e300"],
        ["logbook", "--logbook", "x", "--body-mass", "0x50"],
    ])
    func anOutOfRangeNumberIsAUsageError(_ arguments: [String]) throws {
        let result = try RunWayBinary.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(arguments[arguments.count - 2]))
        #expect(!result.stderr.contains("Fatal error"))
    }

    // MARK: Missions

    @Test(arguments: [
        ("pace=5,distance=5000", "pace \"5\" is not M:SS"),
        ("pace=0:01,distance=5000", "outside 2:00–20:00"),
        ("pace=1000000:00,distance=5000", "pace \"1000000:00\" is not M:SS"),
        ("pace=5:30,deviation=1e308,distance=5000", "deviation \"1e308\""),
        ("pace=5:30,distance=0x10", "distance \"0x10\""),
        ("pace=5:30,distance=1e300", "distance \"1e300\""),
        ("pace=5:30,distance=5000,pace=6:00", "pace is given twice"),
        ("pace=5:30,distance=5mi", "distance \"5mi\""),
        ("pace=5:30,distance=50", "outside 100 m–500 km"),
        ("pace=5:30,,distance=5000", "is not key=value"),
    ])
    func missionsAcceptOnlyWhatARunnerMeans(_ text: String, _ message: String) {
        #expect(throws: CLIError.self) { try MissionOption.parse(text) }
        do {
            _ = try MissionOption.parse(text)
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func aRunnersMissionsParse() throws {
        let m = try MissionOption.parse("pace=5:30,deviation=15s,distance=5.2km")
        #expect(m.targetPace == 330 && m.allowedDeviation == 15 && m.targetDistance == 5200)
        #expect(try MissionOption.parse("distance=10000m,pace=12:05").targetPace == 725)
    }
}

/// The live client and the trace reader judge a report by the same check (`GPSReport`).
@Suite("One report check for live and replay")
struct ReportCheckParityTests {
    static let lines = [
        #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:00Z","lat":91,"lon":8}"#,
        #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:00Z","lat":47,"lon":8,"speed":true,"eph":"3"}"#,
        #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:01Z","lat":47.00001,"lon":8,"speed":1e308,"eph":-3}"#,
        #"{"class":"TPV","mode":9,"time":"2026-10-03T07:00:02Z","lat":47.00002,"lon":8}"#,
        #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:03Z","lat":47.00003,"lon":181}"#,
        #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:04Z","lat":47.00004,"lon":8,"speed":3.2,"eph":12}"#,
    ]

    @Test func jsonBooleansAndStringsAreNotNumbers() throws {
        let trace = TraceReader.gps(text: Self.lines[1], name: "t")
        let fix = try #require(trace.fixes.first)
        #expect(fix.speed == nil && fix.horizontalAccuracy == nil)
        #expect(
            trace.diagnostics.map(\.message) == [
                "speed true is not a number — treated as unknown",
                "eph \"3\" is not a number — treated as unknown",
            ])
    }

    @Test func theTraceReaderAndTheLiveFilterDeliverTheSameFixes() {
        let trace = TraceReader.gps(text: Self.lines.joined(separator: "\n"), name: "t")
        var filter = EpochFilter()
        var live: [Fix] = []
        for line in Self.lines {
            // What libgps would hand the live client for this line (it parses JSON itself;
            // a field of the wrong type is left unset, as NaN).
            let object = TraceReader.json(line)
            func n(_ key: String) -> Double? { object?[key].flatMap(TraceReader.number) }
            let report = GPSReport(
                time: object?["time"]?.stringValue.flatMap(UTCTime.parse), mode: Int(n("mode") ?? 0),
                latitude: n("lat"), longitude: n("lon"), eph: n("eph"), speed: n("speed"))
            if case .fix(let fix, _) = filter.admit(report) { live.append(fix) }
        }
        #expect(trace.fixes == live)
        #expect(live.map(\.coordinate.latitude) == [47, 47.00001, 47.00004])
        #expect(live[1].speed == nil && live[1].horizontalAccuracy == nil)
        #expect(filter.rejected == 3)
    }
}
