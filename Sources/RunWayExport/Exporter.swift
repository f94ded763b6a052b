import RunWayCore
import RunWayStore

public enum ExportFormat: String, Sendable, CaseIterable {
    case fit, gpx, tcx
    /// The offline viewer: `index.html` and its data files, beside the others.
    case html

    /// The formats written as one file per flight.
    public static let activityFiles: [ExportFormat] = [.fit, .gpx, .tcx]
}

/// What `runway export` was asked.
public struct ExportOptions: Sendable {
    public var formats: [ExportFormat] = ExportFormat.allCases
    /// Only flights that started at or after this (Unix seconds).
    public var since: Double?
    /// Export again flights the manifest says were exported.
    public var all = false
    /// Read every written file back.
    public var verify = false
    /// Kilograms, for calories.
    public var bodyMass: Double?
    /// Seconds east of UTC at a moment, for file names (the configured time zone).
    public var utcOffset: @Sendable (Double) -> Int = { _ in 0 }
    /// Who writes the files: the release and the board's serial (`DeviceIdentity`).
    public var device = DeviceIdentity()
    /// The configuration's `home_altitude_m`: anchors the altitude above sea level at the start.
    public var homeAltitude: Double?
    /// How the viewer names the local times (`Asia/Seoul, UTC+9`).
    public var zoneLabel = "UTC"

    public init() {}
}

/// What an export did, flight by flight.
public struct ExportReport: Sendable, Equatable {
    public struct Written: Sendable, Equatable {
        public var flight: Int64
        public var format: ExportFormat
        public var name: String
        public var bytes: Int
    }

    public struct Skipped: Sendable, Equatable {
        public var flight: Int64
        public var reason: String
    }

    public var written: [Written] = []
    /// Files the manifest says an earlier export wrote.
    public var alreadyExported = 0
    public var skipped: [Skipped] = []
    /// Names a runner's own file held: ours went under another name.
    public var renamedAround: [String] = []

    /// A name in the folder the export did not read (not a regular file, or past the bound it
    /// reads of it): left as it is, and why, with what was done instead.
    public struct LeftAlone: Sendable, Equatable {
        public var name: String
        public var reason: String
    }

    public var leftAlone: [LeftAlone] = []
    /// What stopped the export; what was written before it stays, whole.
    public var failure: ExportError?
    /// The offline viewer, when it was part of the export.
    public var viewer: ViewerExport.Written?
}

/// Exports a logbook's flights into a stick's `RUNWAY` folder: finished and recovered flights
/// (a recovered one says so inside its files), never one still flying, never a too-short one.
/// The logbook is only read.
public enum Exporter {
    public static func export(
        from logbook: Logbook, to folder: ExportDirectory, options: ExportOptions,
        progress: ((Double) -> Void)? = nil
    ) throws(StoreError) -> ExportReport {
        var report = ExportReport()
        let earlier = readManifest(folder, report: &report)
        var manifest = earlier ?? ExportManifest()
        // The viewer's part of each flight loaded here for its files, so it is not loaded twice.
        var viewer: [Int64: ViewerExport.Prepared] = [:]
        var taken = Set(folder.names())
        let entries = try logbook.entries().sorted { $0.startTime < $1.startTime }
        flights: for (n, entry) in entries.enumerated() {
            progress?(Double(n) / Double(entries.count))
            if let since = options.since, entry.startTime < since { continue }
            switch entry.status {
            case .flying:
                report.skipped.append(.init(flight: entry.id, reason: "still in the air"))
                continue
            case .tooShort:
                report.skipped.append(.init(flight: entry.id, reason: "too short to be a run"))
                continue
            case .finished, .recovered: break
            }
            let files = options.formats.filter { ExportFormat.activityFiles.contains($0) }
            let wanted = files.filter {
                options.all || !manifest.contains(start: entry.startTime, format: $0)
            }
            report.alreadyExported += files.count - wanted.count
            guard !wanted.isEmpty else { continue }
            guard let logged = try logbook.flight(id: entry.id) else { continue }
            if options.formats.contains(.html) {
                viewer[entry.id] = ViewerExport.prepare(logged, options: options)
            }
            let activity = try activity(of: logged, from: logbook, options: options)
            let base = baseName(logged.flight, utcOffset: options.utcOffset(logged.flight.startTime))
            let notes =
                logged.status == .recovered
                ? "Recovered after a power cut: recorded up to its last saved second." : nil
            for format in wanted {
                let bytes = encode(activity, format, name: base, notes: notes, options: options)
                let name = freeName(base, format, bytes: bytes, in: folder, taken: &taken, report: &report)
                do throws(ExportError) {
                    if let name {
                        try folder.write(bytes, as: name)
                        if options.verify, try !folder.holds(name, exactly: bytes) {
                            throw .verifyFailed(file: name)
                        }
                        report.written.append(
                            .init(flight: entry.id, format: format, name: name, bytes: bytes.count))
                    }
                    manifest.add(
                        .init(start: entry.startTime, format: format, name: name ?? base, bytes: bytes.count))
                } catch {
                    report.failure = error
                    break flights
                }
            }
        }
        // A manifest left alone is not replaced either: what it is stays the runner's to see.
        do throws(ExportError) {
            if earlier != nil {
                try folder.write(Array(manifest.text.utf8), as: ExportManifest.fileName, replacing: true)
            }
        } catch {
            report.failure = report.failure ?? error
        }
        if report.failure == nil, options.formats.contains(.html) {
            let files = try ViewerExport.files(from: logbook, options: options, prepared: viewer)
            do throws(ExportError) {
                report.viewer = try ViewerExport.write(files, to: folder)
            } catch {
                report.failure = error
            }
        }
        return report
    }

    /// The manifest an earlier export wrote; nil when it is there but is not read: not a regular
    /// file, or over `ExportManifest.maximumBytes` (a 1.5 GB one once cost 3 GB of memory). Then
    /// it is left as it is, said, and every run is checked against the files on the stick instead
    /// (`freeName`: one already there byte for byte is not written again), so the runs are on the
    /// stick all the same and a repeat writes nothing twice — what a runner plugging in a stick
    /// expects, rather than an export refused over a file of the program's own.
    static func readManifest(_ folder: ExportDirectory, report: inout ExportReport) -> ExportManifest? {
        do throws(ExportError) {
            guard let bytes = try folder.read(ExportManifest.fileName, atMost: ExportManifest.maximumBytes)
            else { return ExportManifest() }
            return ExportManifest(text: String(decoding: bytes, as: UTF8.self))
        } catch {
            report.leftAlone.append(
                .init(
                    name: ExportManifest.fileName,
                    reason: "\(error.fact): it was not read and is left as it is; every run was checked "
                        + "against the files on the stick instead, so none is written twice "
                        + "(remove it and the next export writes a new one)"))
            return nil
        }
    }

    /// The export's view of a logged flight: its per-second series from its raw log (holes a
    /// damaged card left said in the files).
    public static func activity(
        of logged: LoggedFlight, from logbook: Logbook, options: ExportOptions
    ) throws(StoreError) -> ExportActivity {
        let inputs = Array(try logbook.rawInputSequence(flight: logged.id))
        return ExportActivity(
            flight: logged.flight, bodyMass: options.bodyMass, inputs: inputs,
            homeAltitude: options.homeAltitude,
            rawLogGaps: logged.rawLogGaps.map { $0.fromElapsed...max($0.fromElapsed, $0.toElapsed) })
    }

    /// The file's bytes in `format`.
    public static func encode(
        _ activity: ExportActivity, _ format: ExportFormat, name: String, notes: String?,
        options: ExportOptions
    ) -> [UInt8] {
        switch format {
        case .fit:
            FITEncoder.encode(
                activity, device: options.device, utcOffset: options.utcOffset(activity.startTime))
        case .gpx: GPXEncoder.encode(activity, name: notes.map { "\(name) — \($0)" } ?? name)
        case .tcx: TCXEncoder.encode(activity, notes: notes, device: options.device)
        case .html: []  // the viewer is written for the whole logbook (ViewerExport), not per file
        }
    }

    /// `2026-10-03-0700-5.2km`: local date and time of the start, and the distance.
    public static func baseName(_ flight: Flight, utcOffset: Int) -> String {
        let local = Int((flight.startTime).rounded(.down)) + utcOffset
        let (date, time) = UTCTime.components(local)
        let clock = time.split(separator: ":").prefix(2).joined()
        let tenths = Int((flight.distance / 100).rounded())
        return "\(date)-\(clock)-\(tenths / 10).\(tenths % 10)km"
    }

    /// The name to write under: `base.ext`, or `base-2.ext`, … when a file of that name is there
    /// already. nil when the file there is byte for byte this one (an export whose manifest was
    /// lost): nothing to write.
    static func freeName(
        _ base: String, _ format: ExportFormat, bytes: [UInt8], in folder: ExportDirectory,
        taken: inout Set<String>,
        report: inout ExportReport
    ) -> String? {
        var candidate = "\(base).\(format.rawValue)"
        var n = 1
        while taken.contains(candidate) {
            do throws(ExportError) {
                // By size first, then a chunk at a time: a larger file there is never read.
                if try folder.holds(candidate, exactly: bytes) { return nil }
            } catch {
                report.leftAlone.append(
                    .init(name: candidate, reason: "\(error.fact): it was not read and is left as it is"))
            }
            if n == 1 { report.renamedAround.append(candidate) }
            n += 1
            candidate = "\(base)-\(n).\(format.rawValue)"
        }
        taken.insert(candidate)
        return candidate
    }
}
