import RunWayCore
import RunWayStore

/// Writes the offline flight viewer into the `RUNWAY` folder: the page and its script and style
/// (built into this program from `Viewer/`), `runway-logbook.js` with every run, and one data file
/// per flight, loaded only when that flight is opened (a 300-flight stick opens fast). A data
/// file is rewritten only when its bytes change, so a repeat export writes the logbook file and
/// little else. Open `RUNWAY/index.html` on any computer or phone: nothing is fetched unless the
/// runner turns the course's map on (`runway-map.js`: OpenStreetMap's tiles for the view).
public enum ViewerExport {
    public struct Written: Sendable, Equatable {
        /// The page to open.
        public var index: String
        public var flights: Int
        /// Files written this time (data files that changed, the logbook file, changed assets).
        public var filesWritten: Int
        /// Bytes of the viewer's files for all flights (what it costs on the stick).
        public var bytes: Int
    }

    static let logbookFile = "runway-logbook.js"
    static let assets: [(name: String, bytes: [UInt8])] = [
        ("index.html", PackageResources.index_html),
        ("runway-viewer.js", PackageResources.runway_viewer_js),
        ("runway-map.js", PackageResources.runway_map_js),
        ("runway-viewer.css", PackageResources.runway_viewer_css),
    ]

    /// One flight's part of the viewer: its data file and its line in the logbook file.
    public struct Prepared: Sendable {
        var file: (name: String, bytes: [UInt8])
        var line: JSONValue
    }

    /// The viewer's part for a flight the export has loaded anyway; nil for one it does not list.
    public static func prepare(_ logged: LoggedFlight, options: ExportOptions) -> Prepared? {
        guard logged.status == .finished || logged.status == .recovered, logged.flight.status == .recorded
        else { return nil }
        return Prepared(
            file: (
                ViewerData.fileName(logged.flight),
                Array(ViewerData.flight(logged, bodyMass: options.bodyMass).utf8)
            ),
            line: ViewerData.entry(logged, utcOffset: options.utcOffset(logged.flight.startTime)))
    }

    /// The viewer's files for `logbook`'s runs: (name, bytes), the logbook file last but the
    /// page's own three. `prepared`: flights the export already loaded, not read again.
    public static func files(
        from logbook: Logbook, options: ExportOptions, prepared: [Int64: Prepared] = [:]
    ) throws(StoreError) -> [(name: String, bytes: [UInt8])] {
        let entries = try logbook.entries().filter { $0.status == .finished || $0.status == .recovered }
            .sorted { $0.startTime > $1.startTime }
        var files: [(name: String, bytes: [UInt8])] = []
        var lines: [JSONValue] = []
        for entry in entries {
            var part = prepared[entry.id]
            if part == nil, let logged = try logbook.flight(id: entry.id) {
                part = prepare(logged, options: options)
            }
            guard let part else { continue }
            files.append(part.file)
            lines.append(part.line)
        }
        files.append((logbookFile, Array(ViewerData.logbook(lines, zone: options.zoneLabel).utf8)))
        return files + assets
    }

    /// Writes `files` into `folder`, each only when its bytes differ from what is there (compared
    /// by size first, then a chunk at a time: a larger file is never read). A name holding a
    /// FIFO, a link or a folder is neither read nor replaced: the export stops there and says so.
    public static func write(_ files: [(name: String, bytes: [UInt8])], to folder: ExportDirectory)
        throws(ExportError) -> Written
    {
        var written = Written(
            index: folder.path + "/index.html", flights: files.count - assets.count - 1, filesWritten: 0,
            bytes: 0)
        for (name, bytes) in files {
            written.bytes += bytes.count
            if try folder.holds(name, exactly: bytes) { continue }
            try folder.write(bytes, as: name, replacing: folder.exists(name))
            written.filesWritten += 1
        }
        return written
    }
}
