import RunWayCore

/// What earlier exports wrote to a stick (`RUNWAY/.runway-manifest`), so a repeat writes only
/// new flights. One line per file: `v1 <TAB> flight start (UTC) <TAB> format <TAB> name <TAB>
/// bytes`. A line that does not read is ignored (at worst a flight is exported again, under a
/// new name, never over a file).
public struct ExportManifest: Sendable, Equatable {
    public static let fileName = ".runway-manifest"

    /// The longest line an export writes, generously: `v1`, a 20-character UTC time, a format
    /// of up to 4 letters, a name of up to 40 (`2026-10-03-0700-999.9km-99.fit` is 30), a size of
    /// up to 10 digits, 4 tabs and a newline make 81; a real line is about 60.
    public static let longestLine = 96
    /// More flights than one runner flies: a run a day for 54 years.
    public static let maximumFlights = 20_000
    /// What an export reads of a manifest (5.5 MiB): a line per activity file of each of
    /// `maximumFlights`. A larger one is no manifest this export wrote: it is left as it is,
    /// unread (`Exporter`).
    public static let maximumBytes = longestLine * ExportFormat.activityFiles.count * maximumFlights

    public struct Entry: Sendable, Equatable {
        public var start: Double
        public var format: ExportFormat
        public var name: String
        public var bytes: Int
    }

    public private(set) var entries: [Entry] = []
    private var keys: Set<String> = []

    public init() {}

    public init(text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 5, fields[0] == "v1", let start = UTCTime.parse(String(fields[1])),
                let format = ExportFormat(rawValue: String(fields[2])), !fields[3].isEmpty,
                !fields[3].contains("/"), let bytes = Int(fields[4])
            else { continue }
            add(Entry(start: start, format: format, name: String(fields[3]), bytes: bytes))
        }
    }

    public func contains(start: Double, format: ExportFormat) -> Bool {
        keys.contains(Self.key(start, format))
    }

    public mutating func add(_ entry: Entry) {
        guard keys.insert(Self.key(entry.start, entry.format)).inserted else { return }
        entries.append(entry)
    }

    public var text: String {
        entries.map { "v1\t\(UTCTime.format($0.start))\t\($0.format.rawValue)\t\($0.name)\t\($0.bytes)\n" }
            .joined()
    }

    private static func key(_ start: Double, _ format: ExportFormat) -> String {
        "\(UTCTime.format(start)) \(format.rawValue)"
    }
}
