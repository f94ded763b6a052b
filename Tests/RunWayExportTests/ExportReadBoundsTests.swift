import Foundation
import Glibc
import RunWayCore
import RunWayExport
import RunWaySimulator
import RunWayStore
import Testing

/// What an export reads on a stick (the manifest, a file of the same name before it goes around
/// it, the viewer's files before rewriting them, a file read back by `--verify`): only a regular
/// file, opened without following a link and without waiting on a FIFO, and never past a stated
/// bound. A 2 GB file here is sparse (`ftruncate`): it costs the disk nothing.
@Suite("What an export reads on a stick: regular files only, never past a stated bound")
struct ExportReadBoundsTests {
    static let twoGigabytes = 2 << 30

    /// A logbook of two 400 s runs a day apart.
    static let logbook: String = {
        let path = NSTemporaryDirectory() + "runway-bounds-\(UUID().uuidString.prefix(8)).sqlite"
        let logbook = try! Logbook(path: path)
        for day in 0..<2 {
            var flight = SimulatedFlight.fly(Scenario.flat5k.ending(at: 400)).flight!
            flight.startTime += Double(day) * 86_400
            _ = try! logbook.save(flight, inputs: [], source: "test")
        }
        return path
    }()

    /// A stick with an empty `RUNWAY` folder: (the stick, the folder).
    static func stick() throws -> (String, String) {
        let stick = NSTemporaryDirectory() + "runway-bounds-stick-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: stick + "/RUNWAY", withIntermediateDirectories: true)
        return (stick, stick + "/RUNWAY")
    }

    static func export(_ stick: String) throws -> (ExportReport, ExportDirectory) {
        let folder = try ExportDirectory(destination: stick)
        let report = try Exporter.export(
            from: try Logbook(path: logbook, access: .readOnly), to: folder, options: ExportOptions())
        return (report, folder)
    }

    static func sparse(_ path: String, bytes: Int) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        try #require(fd >= 0 && ftruncate(fd, off_t(bytes)) == 0)
        close(fd)
    }

    static func kind(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    static func size(_ path: String) -> Int {
        var status = stat()
        return lstat(path, &status) == 0 ? Int(status.st_size) : -1
    }

    /// The names the export writes for the first run (its base name, UTC).
    static func firstBase() throws -> String {
        let logged = try #require(try Logbook(path: logbook, access: .readOnly).flight(id: 1))
        return Exporter.baseName(logged.flight, utcOffset: 0)
    }

    @Test func theReaderRefusesAFileOverItsBoundWithoutReadingIt() throws {
        let (stick, path) = try Self.stick()
        defer { try? FileManager.default.removeItem(atPath: stick) }
        try Self.sparse(path + "/big", bytes: Self.twoGigabytes)
        try Data("small".utf8).write(to: URL(fileURLWithPath: path + "/small"))
        let folder = try ExportDirectory(destination: stick)
        #expect(throws: ExportError.tooLarge(file: path + "/big", bytes: Self.twoGigabytes, limit: 1_000)) {
            try folder.read("big", atMost: 1_000)
        }
        #expect(try folder.read("small", atMost: 5) == Array("small".utf8))
        #expect(throws: ExportError.tooLarge(file: path + "/small", bytes: 5, limit: 4)) {
            try folder.read("small", atMost: 4)
        }
        #expect(try folder.read("missing", atMost: 5) == nil)
        // Compared with what would be written: by size first, so the 2 GB file is not read.
        #expect(try !folder.holds("big", exactly: [1, 2, 3]))
        #expect(try folder.holds("small", exactly: Array("small".utf8)))
        #expect(try !folder.holds("small", exactly: Array("smalL".utf8)))
        #expect(folder.largestRead <= 1 << 16)
    }

    @Test func aHugeManifestIsLeftAloneUnreadAndTheExportLosesNothing() throws {
        let (stick, path) = try Self.stick()
        defer { try? FileManager.default.removeItem(atPath: stick) }
        try Self.sparse(path + "/.runway-manifest", bytes: Self.twoGigabytes)
        let (report, folder) = try Self.export(stick)
        #expect(report.failure == nil, "\(report.failure.map { "\($0)" } ?? "")")
        #expect(report.written.count == 6)
        #expect(report.viewer?.flights == 2)
        // Said, with what was done instead; the file itself is as it was.
        #expect(report.leftAlone.map(\.name) == [".runway-manifest"])
        let reason = try #require(report.leftAlone.first?.reason)
        #expect(reason.contains("2048.0 MiB") && reason.contains("was not read"), "\(reason)")
        #expect(reason.contains("checked against the files on the stick"), "\(reason)")
        #expect(Self.size(path + "/.runway-manifest") == Self.twoGigabytes)
        // Memory: the most any one read held, by the reader's own count.
        #expect(folder.largestRead <= ExportManifest.maximumBytes, "\(folder.largestRead)")
        #expect(ExportManifest.maximumBytes < 16 << 20)
        // A repeat finds every file already there, byte for byte: nothing is written twice.
        let (again, _) = try Self.export(stick)
        #expect(again.failure == nil && again.written.isEmpty && again.renamedAround.isEmpty)
        #expect(again.viewer?.filesWritten == 0)
    }

    @Test func aFIFOWhereTheManifestGoesIsSaidAndNotWaitedOn() throws {
        let (stick, path) = try Self.stick()
        defer { try? FileManager.default.removeItem(atPath: stick) }
        try #require(mkfifo(path + "/.runway-manifest", 0o644) == 0)
        let (report, _) = try Self.export(stick)
        #expect(report.failure == nil)
        #expect(report.written.count == 6)
        #expect(report.leftAlone.map(\.name) == [".runway-manifest"])
        #expect(report.leftAlone.first?.reason.contains("is a FIFO, not a regular file") == true)
        #expect(Self.kind(path + "/.runway-manifest") == S_IFIFO)
    }

    @Test func aFIFOWhereAViewerFileGoesStopsTheViewerAndSaysWhatToRemove() throws {
        let (stick, path) = try Self.stick()
        defer { try? FileManager.default.removeItem(atPath: stick) }
        try #require(mkfifo(path + "/runway-logbook.js", 0o644) == 0)
        let (report, _) = try Self.export(stick)
        // The runs' own files are written; the viewer cannot be, and that is said.
        #expect(report.written.count == 6)
        #expect(report.failure == .notARegularFile(file: path + "/runway-logbook.js", kind: "a FIFO"))
        #expect(report.failure?.description.contains("remove or rename it and export again") == true)
        #expect(Self.kind(path + "/runway-logbook.js") == S_IFIFO)
    }

    @Test func aFIFOWhereARunsFileGoesIsLeftAloneAndOursGoesAroundIt() throws {
        let (stick, path) = try Self.stick()
        defer { try? FileManager.default.removeItem(atPath: stick) }
        let base = try Self.firstBase()
        try #require(mkfifo(path + "/\(base).gpx", 0o644) == 0)
        let (report, _) = try Self.export(stick)
        #expect(report.failure == nil)
        #expect(report.renamedAround == ["\(base).gpx"])
        #expect(report.written.contains { $0.name == "\(base)-2.gpx" })
        #expect(report.leftAlone.map(\.name) == ["\(base).gpx"])
        #expect(Self.kind(path + "/\(base).gpx") == S_IFIFO)
    }

    @Test func aSymbolicLinkIsNeitherReadNorReplaced() throws {
        let (stick, path) = try Self.stick()
        defer { try? FileManager.default.removeItem(atPath: stick) }
        let (_, elsewhere) = try Self.stick()
        try Data("v1\tkeep\n".utf8).write(to: URL(fileURLWithPath: elsewhere + "/manifest"))
        try Data("<p>mine</p>".utf8).write(to: URL(fileURLWithPath: elsewhere + "/page"))
        try FileManager.default.createSymbolicLink(
            atPath: path + "/.runway-manifest", withDestinationPath: elsewhere + "/manifest")
        try FileManager.default.createSymbolicLink(
            atPath: path + "/index.html", withDestinationPath: elsewhere + "/page")
        let (report, _) = try Self.export(stick)
        #expect(report.written.count == 6)
        #expect(report.leftAlone.map(\.name) == [".runway-manifest"])
        #expect(report.leftAlone.first?.reason.contains("is a symbolic link") == true)
        #expect(report.failure == .notARegularFile(file: path + "/index.html", kind: "a symbolic link"))
        #expect(
            Self.kind(path + "/.runway-manifest") == S_IFLNK && Self.kind(path + "/index.html") == S_IFLNK)
        #expect(try String(contentsOfFile: elsewhere + "/manifest", encoding: .utf8) == "v1\tkeep\n")
        #expect(try String(contentsOfFile: elsewhere + "/page", encoding: .utf8) == "<p>mine</p>")
    }

    @Test func aHugeFileOfTheSameNameIsComparedBySizeNotRead() throws {
        let (stick, path) = try Self.stick()
        defer { try? FileManager.default.removeItem(atPath: stick) }
        let base = try Self.firstBase()
        try Self.sparse(path + "/\(base).fit", bytes: Self.twoGigabytes)
        try Self.sparse(path + "/runway-viewer.js", bytes: Self.twoGigabytes)
        let folder = try ExportDirectory(destination: stick)
        var options = ExportOptions()
        options.verify = true
        let report = try Exporter.export(
            from: try Logbook(path: Self.logbook, access: .readOnly), to: folder, options: options)
        #expect(report.failure == nil)
        #expect(report.renamedAround == ["\(base).fit"])
        #expect(Self.size(path + "/\(base).fit") == Self.twoGigabytes)
        // The viewer's own file is replaced whole (it is ours, and differs by its size alone).
        #expect(Self.size(path + "/runway-viewer.js") < 1 << 20)
        #expect(folder.largestRead <= 1 << 16)
    }
}
