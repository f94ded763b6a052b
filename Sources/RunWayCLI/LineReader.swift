import Foundation
import RunWaySystem

/// Reads text line by line in fixed-size chunks from a regular file, a FIFO, a character device
/// or standard input (`-`), so memory does not grow with the file. A byte-order mark is skipped,
/// CRLF ends a line like LF, and a line longer than `maxLineBytes` is cut off and reported
/// instead of being held whole.
public final class LineReader {
    public struct Line {
        public var number: Int
        /// nil when the bytes are not UTF-8 or the line is too long (`problem` says which).
        public var text: String?
        public var problem: String?
    }

    public static let maxLineBytes = 1 << 20
    public let name: String
    private let fd: FileDescriptor
    private let ownsDescriptor: Bool
    private var memory: [UInt8]?
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var number = 0
    private var firstChunk = true

    /// Opens `path` (`-` is standard input). Refuses what cannot be read, with the reason.
    public init(path: String) throws(CLIError) {
        name = path == "-" ? "standard input" : path
        if path == "-" {
            fd = .standardInput
            ownsDescriptor = false
        } else {
            let opened: FileDescriptor
            do throws(Errno) { opened = try .open(path, O_RDONLY | O_CLOEXEC) } catch {
                throw Self.failure(path, error)
            }
            if let info = try? opened.status(), (info.st_mode & S_IFMT) == S_IFDIR {
                try? opened.close()
                throw CLIError("cannot read \(path): it is a directory")
            }
            fd = opened
            ownsDescriptor = true
        }
        try sniff()
    }

    /// Reads lines from bytes in memory (tests, fuzzing).
    public init(bytes: [UInt8], name: String) {
        self.name = name
        fd = FileDescriptor(rawValue: -1)
        ownsDescriptor = false
        memory = bytes
        try? sniff()
    }

    deinit { if ownsDescriptor { try? fd.close() } }

    static func failure(_ path: String, _ error: Errno) -> CLIError {
        switch error {
        case .noSuchFile: CLIError("cannot read \(path): no such file")
        case .permissionDenied, .notPermitted: CLIError("cannot read \(path): permission denied")
        default: CLIError("cannot read \(path): \(error)")
        }
    }

    /// Looks at the first bytes: compressed and binary files are refused at once.
    private func sniff() throws(CLIError) {
        try fill()
        if buffer.count >= 2, buffer[0] == 0x1F, buffer[1] == 0x8B {
            throw CLIError("cannot read \(name): it is gzip-compressed (zcat it into runway with '-')")
        }
        if buffer.prefix(4096).contains(0) {
            throw CLIError("cannot read \(name): it is binary, not text")
        }
        if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3 }
    }

    /// Appends the next chunk; false at the end of input.
    @discardableResult
    private func fill() throws(CLIError) -> Bool {
        guard !atEnd else { return false }
        if let memory {
            buffer += memory
            self.memory = nil
            atEnd = true
            return !memory.isEmpty
        }
        let chunk = 1 << 16
        let old = buffer.count
        buffer.reserveCapacity(old + chunk)
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        let n: Int
        do throws(Errno) { n = try fd.read(into: &buffer, from: old, count: chunk) } catch {
            buffer.removeLast(chunk)
            throw Self.failure(name, error)
        }
        buffer.removeLast(chunk - n)
        if n == 0 { atEnd = true }
        return n > 0
    }

    public func next() throws(CLIError) -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = make(start..<newline)
                start = newline + 1
                compact()
                return line
            }
            if buffer.count - start > Self.maxLineBytes {
                // Skip to the end of this overlong line, holding at most one chunk at a time.
                number += 1
                let overlong = Line(number: number, text: nil, problem: "line longer than 1 MiB — skipped")
                while true {
                    if let newline = buffer[start...].firstIndex(of: 0x0A) {
                        start = newline + 1
                        break
                    }
                    start = buffer.count
                    compact()
                    guard try fill() else { break }
                }
                compact()
                return overlong
            }
            let before = buffer.count
            if try !fill() && buffer.count == before {
                guard start < buffer.count else { return nil }
                let line = make(start..<buffer.count)
                start = buffer.count
                compact()
                return line
            }
        }
    }

    private func make(_ range: Range<Int>) -> Line {
        number += 1
        var end = range.upperBound
        if end > range.lowerBound, buffer[end - 1] == 0x0D { end -= 1 }
        let bytes = buffer[range.lowerBound..<end]
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return Line(number: number, text: nil, problem: "not UTF-8 text — line skipped")
        }
        return Line(number: number, text: text, problem: nil)
    }

    private func compact() {
        if start > 1 << 16 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}
