import Glibc

/// Who records into a logbook right now. runwayd (and `runway demo --logbook`) hold a shared
/// `flock` on `<logbook>.recorder` while they run; a command that would close flights a power cut
/// left open asks first, so it never closes a flight that is in the air at this moment. The lock
/// dies with its process, so a power cut or a SIGKILL never leaves it held.
public final class RecorderLock {
    private let descriptor: Int32

    static func path(for logbook: String) -> String { logbook + ".recorder" }

    /// Takes the recorder's lock for this process's lifetime (until `deinit`); nil where the lock
    /// file cannot be made (a read-only directory: then nothing else can write there either).
    public init?(logbook: String) {
        let fd = open(Self.path(for: logbook), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o640)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// True when a recorder holds the lock of `logbook` now.
    public static func isHeld(logbook: String) -> Bool {
        let fd = open(path(for: logbook), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }
}
