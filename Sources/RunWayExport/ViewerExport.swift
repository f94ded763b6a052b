import RunWayCore
import RunWayStore

/// Writes the offline flight viewer into the `RUNWAY` folder: the page and its script and style
/// (built into this program from `Viewer/`), `runway-logbook.js` with every run, and one data file
/// per flight, loaded only when that flight is opened (a 300-flight stick opens fast). A data
/// file is rewritten only when its bytes change, so a repeat export writes the logbook file and
/// little else. Open `RUNWAY/index.html` on any computer or phone: nothing is fetched.
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
        ("runway-viewer.css", PackageResources.runway_viewer_css),
    ]

    /// The viewer's files for `logbook`'s runs: (name, bytes), the logbook file last but the
    /// page's own three.
    public static func files(from logbook: Logbook, options: ExportOptions) throws(StoreError)
        -> [(name: String, bytes: [UInt8])]
    {
        let entries = try logbook.entries().filter { $0.status == .finished || $0.status == .recovered }
            .sorted { $0.startTime > $1.startTime }
        var files: [(name: String, bytes: [UInt8])] = []
        var lines: [JSONValue] = []
        for entry in entries {
            guard let logged = try logbook.flight(id: entry.id), logged.flight.status == .recorded else {
                continue
            }
            files.append(
                (
                    ViewerData.fileName(logged.flight),
                    Array(ViewerData.flight(logged, bodyMass: options.bodyMass).utf8)
                ))
            lines.append(ViewerData.entry(logged, utcOffset: options.utcOffset(logged.flight.startTime)))
        }
        files.append((logbookFile, Array(ViewerData.logbook(lines, zone: options.zoneLabel).utf8)))
        return files + assets
    }

    /// Writes `files` into `folder`, each only when its bytes differ from what is there.
    public static func write(_ files: [(name: String, bytes: [UInt8])], to folder: ExportDirectory)
        throws(ExportError) -> Written
    {
        var written = Written(
            index: folder.path + "/index.html", flights: files.count - assets.count - 1, filesWritten: 0,
            bytes: 0)
        for (name, bytes) in files {
            written.bytes += bytes.count
            let old = try folder.read(name)
            if old == bytes { continue }
            try folder.write(bytes, as: name, replacing: old != nil)
            written.filesWritten += 1
        }
        return written
    }
}
