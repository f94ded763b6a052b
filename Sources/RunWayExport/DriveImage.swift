import Foundation
import RunWayCore
import RunWayStore
import RunWaySystem

/// The FAT image the wearable shows a computer over USB (the gadget's read-only mass storage),
/// holding `RUNWAY/` with every run's files and the offline viewer (`RUNWAY/index.html`), as a
/// Garmin watch shows `GARMIN/Activity`. Built
/// without mounting anything: the files are exported into a scratch folder, `mkfs.vfat -C` makes
/// the filesystem in a new file, `mcopy` (mtools) fills it, and the finished image is fsynced and
/// renamed over the old one, so the gadget never serves a half-built image. Only exported files
/// go in; the logbook itself never does.
public enum DriveImage {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    public struct Built: Sendable, Equatable {
        public var path: String
        public var bytes: Int
        public var files: Int
    }

    /// The volume label a computer shows.
    public static let label = "RUNWAY"

    /// Builds the image of `logbook`'s runs at `path`.
    public static func build(
        from logbook: Logbook, at path: String, options: ExportOptions, mkfs: String = "/usr/sbin/mkfs.vfat",
        mcopy: String = "/usr/bin/mcopy"
    ) throws -> Built {
        let scratch = NSTemporaryDirectory() + "runway-drive-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var everything = options
        everything.all = true
        everything.verify = false
        let folder = try ExportDirectory(destination: scratch)
        let report = try Exporter.export(from: logbook, to: folder, options: everything)
        if let failure = report.failure { throw failure }
        // The manifest is the stick's bookkeeping, not the runner's.
        try? FileManager.default.removeItem(atPath: folder.path + "/" + ExportManifest.fileName)
        let total = report.written.reduce(0) { $0 + $1.bytes } + (report.viewer?.bytes ?? 0)
        // FAT needs room for its tables and clusters: a fifth more than the files, and at least
        // 8 MiB (mkfs.vfat's FAT16 floor is well under that).
        let kilobytes = max(8 * 1024, (total + total / 5) / 1024 + 1024)
        let temporary = path + ".building"
        try? FileManager.default.removeItem(atPath: temporary)
        var environment = ProcessInfo.processInfo.environment
        environment["MTOOLS_SKIP_CHECK"] = "1"
        environment["MTOOLSRC"] = "/dev/null"
        do {
            try run(mkfs, ["-C", "-n", label, temporary, String(kilobytes)], environment: environment)
            try run(mcopy, ["-i", temporary, "-s", "-m", folder.path, "::/"], environment: environment)
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: temporary))
            try handle.synchronize()
            try handle.close()
            guard rename(temporary, path) == 0 else {
                throw Failure(description: "cannot rename \(temporary) to \(path): \(Errno.current)")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        return Built(
            path: path, bytes: size ?? kilobytes * 1024,
            files: report.written.count + (report.viewer?.filesWritten ?? 0))
    }

    private static func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws {
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(tool, arguments, environment: environment)
        } catch {
            throw Failure(description: "\(error) (apt-get install dosfstools mtools)")
        }
        guard outcome.status == 0 else {
            throw Failure(
                description: "\((tool as NSString).lastPathComponent) failed: "
                    + outcome.standardError.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
