import Foundation
import Glibc

/// One runwayd per logbook: an exclusive `flock` on `<logbook>.runwayd`, taken before the logbook
/// is opened and held for the process's life. A second runwayd on the same logbook is refused
/// before it touches anything (it would close the first one's flight in the air as "interrupted",
/// and record beside it). The lock dies with its process, so a power cut or a SIGKILL never leaves
/// it held; the file holds the holder's pid, for the refusal's words.
final class DaemonLock: Sendable {
    private let descriptor: Int32

    static func path(for logbook: String) -> String { logbook + ".runwayd" }

    /// Why this runwayd may not run on the logbook.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        /// Another runwayd holds the lock (`pid` when its file says).
        case anotherDaemon(logbook: String, pid: Int32?)
        /// The logbook's folder does not exist.
        case folderMissing(logbook: String)
        /// The lock file cannot be made or opened (`errno`).
        case cannotLock(path: String, errno: Int32)

        var description: String {
            switch self {
            case .anotherDaemon(let logbook, let pid):
                "another runwayd\(pid.map { " (pid \($0))" } ?? "") is already running on the logbook \(logbook): "
                    + "stop it first (systemctl stop runwayd), or give this one its own --logbook and --socket"
            case .folderMissing(let logbook):
                "the logbook's folder \((logbook as NSString).deletingLastPathComponent) does not exist: "
                    + "runwayd.service has systemd make /var/lib/runway; by hand, make it or give --logbook a path in an existing folder"
            case .cannotLock(let path, let errno):
                "cannot take the lock \(path) (\(String(cString: strerror(errno)))): "
                    + "the logbook's folder must be writable by runwayd"
            }
        }
    }

    init(logbook: String) throws(Refusal) {
        let path = Self.path(for: logbook)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o640)
        guard fd >= 0 else {
            if errno == ENOENT { throw .folderMissing(logbook: logbook) }
            throw .cannotLock(path: path, errno: errno)
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.pid(in: fd)
            close(fd)
            if code == EWOULDBLOCK { throw .anotherDaemon(logbook: logbook, pid: holder) }
            throw .cannotLock(path: path, errno: code)
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) == 0 { _ = pwrite(fd, pid, pid.count, 0) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    private static func pid(in fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let n = pread(fd, &bytes, bytes.count, 0)
        guard n > 0 else { return nil }
        return Int32(
            String(decoding: bytes.prefix(n), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
