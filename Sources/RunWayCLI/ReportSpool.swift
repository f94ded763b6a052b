import Foundation
import RunWayCore
import RunWaySystem

/// Reports held on disk between the trace reader's two passes, so a long trace (or one read from
/// a pipe, which cannot be read twice) costs a few bytes of memory per report instead of the
/// whole parsed file: fixed-size binary records in an unlinked temporary file, written and read
/// back in 64 KiB blocks. The file vanishes when the spool is released, even after a crash.
final class ReportSpool {
    private static let fields = 9
    private static let blockRecords = 1024
    private let fd: FileDescriptor
    private var block: [Double] = []
    private(set) var count = 0

    init() throws(CLIError) {
        let directory =
            ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/runway-spool-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else {
            throw CLIError(
                "cannot make a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        fd = FileDescriptor(rawValue: made)
        block.reserveCapacity(Self.fields * Self.blockRecords)
    }

    deinit { try? fd.close() }

    func append(_ fix: Fix, line: Int) throws(CLIError) {
        let nan = Double.nan
        block += [
            fix.time, fix.coordinate.latitude, fix.coordinate.longitude, fix.horizontalAccuracy ?? nan,
            fix.speed ?? nan, fix.track ?? nan, fix.altitude ?? nan, Double(fix.mode), Double(line),
        ]
        count += 1
        if block.count >= Self.fields * Self.blockRecords { try flush() }
    }

    private func flush() throws(CLIError) {
        let failed = block.withUnsafeBytes { bytes -> Errno? in
            do throws(Errno) {
                try fd.writeAll(bytes)
                return nil
            } catch {
                return error
            }
        }
        block.removeAll(keepingCapacity: true)
        if let failed {
            throw CLIError("cannot write the temporary file for a long trace: \(failed)")
        }
    }

    /// Ends writing; the records can then be read back in order, as often as needed.
    func finish() throws(CLIError) { try flush() }

    func records() -> Records { Records(fd: fd, count: count) }

    struct Records: Sequence, IteratorProtocol {
        let fd: FileDescriptor
        let count: Int
        private var index = 0
        private var block: [Double] = []
        private var position = 0

        init(fd: FileDescriptor, count: Int) {
            self.fd = fd
            self.count = count
        }

        mutating func next() -> (fix: Fix, line: Int)? {
            guard index < count else { return nil }
            if position >= block.count {
                let records = Swift.min(ReportSpool.blockRecords, count - index)
                block = [Double](repeating: 0, count: records * ReportSpool.fields)
                let offset = index * ReportSpool.fields * MemoryLayout<Double>.size
                let complete = block.withUnsafeMutableBytes { bytes -> Bool in
                    var done = 0
                    while done < bytes.count {
                        let rest = UnsafeMutableRawBufferPointer(rebasing: bytes[done...])
                        guard let n = try? fd.read(fromAbsoluteOffset: offset + done, into: rest), n > 0
                        else {
                            return false
                        }
                        done += n
                    }
                    return true
                }
                guard complete else { return nil }
                position = 0
            }
            let r = block[position..<(position + ReportSpool.fields)].map { $0 }
            position += ReportSpool.fields
            index += 1
            func optional(_ v: Double) -> Double? { v.isNaN ? nil : v }
            let fix = Fix(
                time: r[0], coordinate: Coordinate(latitude: r[1], longitude: r[2]),
                horizontalAccuracy: optional(r[3]), speed: optional(r[4]), track: optional(r[5]),
                altitude: optional(r[6]), mode: Int(r[7]))
            return (fix, Int(r[8]))
        }
    }
}

/// Diagnostics of one read, bounded: the first `limit` are kept, the rest only counted, so a
/// file of a million bad lines costs no more memory than one of a hundred.
public struct DiagnosticLog: Sendable {
    public private(set) var kept: [Diagnostic] = []
    public private(set) var total = 0
    public let limit: Int

    public init(limit: Int = 200) { self.limit = limit }

    public mutating func append(_ diagnostic: Diagnostic) {
        total += 1
        if kept.count < limit { kept.append(diagnostic) }
    }
}
