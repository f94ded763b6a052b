import RunWayCore

/// What earlier exports wrote to a stick (`RUNWAY/.runway-manifest`), so a repeat writes only
/// new flights. One line per file: `v1 <TAB> flight start (UTC) <TAB> format <TAB> name <TAB>
/// bytes`. A line that does not read is ignored (at worst a flight is exported again, under a
/// new name, never over a file).
public struct ExportManifest: Sendable, Equatable {
    public static let fileName = ".runway-manifest"

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
