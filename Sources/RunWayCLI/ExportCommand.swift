import Foundation
import RunWayControl
import RunWayCore
import RunWayExport
import RunWayStore

/// `runway export --to DIR`: the logbook's flights as FIT, GPX and TCX files in `DIR/RUNWAY/`.
public enum ExportCommand {
    public struct Request: Sendable {
        public var destination: String
        public var logbook: String?
        public var configuration = DaemonConfiguration.defaultPath
        public var since: String?
        public var formats: String?
        public var all = false
        public var verify = false
        public var json = false
        /// Where file names' local times come from (nil: the configuration's zone, else the system's).
        public var zone: LocalZone?
    }

    public static func run(_ request: Request, console: Console) throws(CLIError) -> Int32 {
        let (configuration, base) = try settings(request.configuration, zone: request.zone)
        var options = base
        if let text = request.formats {
            var formats: [ExportFormat] = []
            for name in text.lowercased().split(separator: ",") {
                guard let format = ExportFormat(rawValue: String(name)) else {
                    throw .usage("--format takes fit, gpx, tcx and html separated by commas, not \"\(name)\"")
                }
                if !formats.contains(format) { formats.append(format) }
            }
            guard !formats.isEmpty else { throw .usage("--format needs at least one of fit, gpx, tcx, html") }
            options.formats = formats
        }
        if let since = request.since {
            guard let time = UTCTime.parse(since) ?? UTCTime.parse(since + "T00:00:00Z") else {
                throw .usage(
                    "--since takes a date (2026-10-03) or a UTC time (2026-10-03T07:00:00Z), not \"\(since)\""
                )
            }
            options.since = time
        }
        options.all = request.all
        options.verify = request.verify

        let path = request.logbook ?? configuration.logbook
        let (logbook, salvageNote) = try openForExport(path, console: console)
        defer { removeSalvageScratch() }
        let folder: ExportDirectory
        do {
            folder = try ExportDirectory(destination: request.destination)
        } catch {
            throw CLIError("\(error)")
        }
        let report: ExportReport
        do {
            let line = ProgressLine("exporting", console: console)
            defer { line.finish() }
            report = try Exporter.export(from: logbook, to: folder, options: options, progress: line.update)
        } catch {
            throw CLIError.logbook(path, error)
        }
        say(
            report, folder: folder, salvageNote: salvageNote, json: request.json, console: console,
            damage: logbook.damage)
        if !request.json { LogbookCommands.sayDamage(logbook, console: console) }
        return report.failure == nil ? 0 : 1
    }

    /// The configuration, and the export options it sets: body mass (calories), the home altitude
    /// (the files' altitude anchor) and the time zone of file names (`zone`, else the configured
    /// one, else the system's: `LocalZone`'s rule).
    static func settings(_ path: String, zone: LocalZone? = nil) throws(CLIError) -> (
        DaemonConfiguration, ExportOptions
    ) {
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.load(path: path)
        } catch {
            throw CLIError("\(error)")
        }
        var options = ExportOptions()
        options.bodyMass = configuration.bodyMass
        options.homeAltitude = configuration.homeAltitude
        let zone = zone ?? LocalZone.configured(configuration.timeZone)
        options.utcOffset = { zone.offset(at: $0) }
        options.zoneLabel = zone.name
        options.device = device()
        return (configuration, options)
    }

    /// The board as its files name it: the release, and a serial hashed from `machineID` (a
    /// board without /etc/machine-id gets the hash of nothing: still stable, the same for all).
    static func device(machineID path: String = "/etc/machine-id") -> DeviceIdentity {
        let id = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return DeviceIdentity(version: RunWayRelease.version, machineID: id)
    }

    /// `runway drive --image FILE`: the USB drive image of every run (the gadget serves it).
    public static func drive(image: String, logbook: String?, configurationPath: String, console: Console)
        throws(CLIError) -> Int32
    {
        let (configuration, options) = try settings(configurationPath)
        let path = logbook ?? configuration.logbook
        let (book, salvageNote) = try openForExport(path, console: console)
        defer { removeSalvageScratch() }
        if let salvageNote { console.err("runway: \(salvageNote)") }
        defer { LogbookCommands.sayDamage(book, console: console) }
        do {
            let built = try DriveImage.build(from: book, at: image, options: options)
            console.out(
                "\(built.path): \(built.files) file\(built.files == 1 ? "" : "s") in RUNWAY/, "
                    + "\(built.bytes / 1_048_576) MiB FAT image labelled \(DriveImage.label)")
            return 0
        } catch {
            throw CLIError("drive image: \(error)")
        }
    }

    /// The logbook, read-only; a damaged one is salvaged into a scratch copy first, and the
    /// export takes what salvage could read. A write a kill cut short is rolled back first, said
    /// on standard error (`Logbook.openingNote`).
    static func openForExport(_ path: String, console: Console) throws(CLIError) -> (Logbook, String?) {
        do {
            let logbook = try Logbook(path: path, access: .readOnly)
            if let note = logbook.openingNote { console.err("runway: \(note)") }
            return (logbook, nil)
        } catch .damaged {
            let scratch = salvageScratch
            removeSalvageScratch()
            do {
                let copy = try Logbook(path: scratch)
                let (flights, note) = try copy.salvage(from: path)
                let readable = flights.filter { $0.newID != nil }.count
                return (
                    copy,
                    "the logbook is damaged: exporting the \(readable) of \(flights.count) flights salvage could read"
                        + (note.map { " (\($0))" } ?? "")
                )
            } catch {
                throw CLIError.logbook(path, error)
            }
        } catch {
            throw CLIError.logbook(path, error)
        }
    }

    /// Where a damaged logbook's readable flights are copied for the export (removed after it).
    static var salvageScratch: String { NSTemporaryDirectory() + "runway-export-salvage-\(getpid()).sqlite" }

    static func removeSalvageScratch() {
        for suffix in ["", "-journal", "-rawlog"] {
            try? FileManager.default.removeItem(atPath: salvageScratch + suffix)
        }
    }

    static func say(
        _ report: ExportReport, folder: ExportDirectory, salvageNote: String?, json: Bool, console: Console,
        damage: [RowDamage] = []
    ) {
        if json {
            console.out(
                JSONValue.object([
                    ("folder", .string(folder.path)),
                    (
                        "written",
                        .array(
                            report.written.map {
                                .object([
                                    ("flight", .number(Double($0.flight))),
                                    ("format", .string($0.format.rawValue)),
                                    ("file", .string($0.name)), ("bytes", .number(Double($0.bytes))),
                                ])
                            })
                    ),
                    ("already_exported", .number(Double(report.alreadyExported))),
                    (
                        "skipped",
                        .array(
                            report.skipped.map {
                                .object([
                                    ("flight", .number(Double($0.flight))), ("reason", .string($0.reason)),
                                ])
                            })
                    ),
                    ("renamed_around", .array(report.renamedAround.map { .string($0) })),
                    (
                        "left_alone",
                        .array(
                            report.leftAlone.map {
                                .object([("file", .string($0.name)), ("reason", .string($0.reason))])
                            })
                    ),
                    ("salvage", salvageNote.map { .string($0) } ?? .null),
                    (
                        "viewer",
                        report.viewer.map {
                            .object([
                                ("index", .string($0.index)), ("flights", .number(Double($0.flights))),
                                ("files_written", .number(Double($0.filesWritten))),
                                ("bytes", .number(Double($0.bytes))),
                            ])
                        } ?? .null
                    ),
                    ("error", report.failure.map { .string($0.description) } ?? .null),
                    ("damage", LogbookCommands.json(damage)),
                ]).rendered())
        } else {
            if let salvageNote { console.err("runway: \(salvageNote)") }
            for file in report.written {
                console.out("wrote \(folder.path)/\(file.name) (flight \(file.flight))")
            }
            for file in report.leftAlone { console.err("runway: \(file.reason)") }
            for name in report.renamedAround {
                console.err("runway: a file of yours is named \(name): it was left alone, ours has a -2 name")
            }
            for skipped in report.skipped {
                console.out("skipped flight \(skipped.flight): \(skipped.reason)")
            }
            let files = report.written.count
            console.out(
                "\(files) file\(files == 1 ? "" : "s") written"
                    + (report.alreadyExported > 0 ? ", \(report.alreadyExported) already on the stick" : ""))
            if let viewer = report.viewer {
                console.out(
                    "viewer: open \(viewer.index) in a browser (\(viewer.flights) flight\(viewer.flights == 1 ? "" : "s"), "
                        + "\(viewer.bytes / 1024) KiB)")
            }
        }
        if let failure = report.failure { console.err("runway: export stopped: \(failure)") }
    }
}
