/// What taking the raw-log journal in found wrong with it, said once by whoever opened the
/// logbook (`runway` on stderr, runwayd in its journal), beside the gaps each flight reports
/// (`Logbook.rawLogGaps`: which seconds are missing).
public enum JournalDamage: Sendable, Equatable, CustomStringConvertible {
    /// `count` records of the journal's current epoch could not be read (torn, zeroed or
    /// overwritten on the card) from byte `offset` on; the records after them were read.
    case unreadableRecords(Int, offset: Int, path: String)
    /// The file ends at byte `size`, short of the `expected` bytes it was made with (nil when
    /// that is not known): every whole record before the cut was read; what lay after it is gone.
    case truncated(size: Int, expected: Int?, path: String)
    /// The journal's header (its epoch and size) could not be read: its records were recognised
    /// without it, and a new header was written once they were in the logbook.
    case unreadableHeader(path: String)

    public var path: String {
        switch self {
        case .unreadableRecords(_, _, let path), .truncated(_, _, let path), .unreadableHeader(let path): path
        }
    }

    public var description: String {
        switch self {
        case .unreadableRecords(let count, let offset, let path):
            "\(path): \(count) raw-log record\(count == 1 ? "" : "s") at byte \(offset) could not be read "
                + "(damaged on the card) and \(count == 1 ? "was" : "were") skipped; every record after "
                + "\(count == 1 ? "it" : "them") was taken in, and the flight says which seconds are missing"
        case .truncated(let size, let expected, let path):
            "\(path): the raw-log journal is cut short (\(size) bytes"
                + (expected.map { " of \($0)" } ?? "") + "): every record before the cut was taken in; "
                + "what was recorded after it is lost (at most the end of the flight that was in the air)"
        case .unreadableHeader(let path):
            "\(path): the raw-log journal's header could not be read; its records were recognised "
                + "without it and taken in, and a new header was written"
        }
    }
}
