import CLinux
import Glibc

/// A system error number, as swift-system's `Errno` is: a typed value that errors carry instead
/// of a bare `Int32`, so callers match named cases (`.noSpace`) and messages say the system's
/// own words. Every call of `FileDescriptor`, `Poll` and `WakeSignal` throws one.
public struct Errno: RawRepresentable, Error, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let isADirectory = Errno(rawValue: EISDIR)
    public static let notADirectory = Errno(rawValue: ENOTDIR)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let ioError = Errno(rawValue: EIO)
    /// EWOULDBLOCK, which is EAGAIN on Linux: a non-blocking call found nothing to do.
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    public static let noMemory = Errno(rawValue: ENOMEM)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let noSuchDevice = Errno(rawValue: ENXIO)
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let busy = Errno(rawValue: EBUSY)
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)

    /// The storage has no room: no space, a file-size limit, or a quota.
    public var isNoSpace: Bool { self == .noSpace || self == .fileTooLarge || self == .quotaExceeded }

    /// The symbolic name, e.g. "ENOSPC" ("errno 4242" for a number the C library does not know).
    public var name: String {
        guard let name = rw_errno_name(rawValue) else { return "errno \(rawValue)" }
        return String(cString: name)
    }

    /// The system's text, e.g. "No space left on device".
    public var message: String { String(cString: strerror(rawValue)) }

    /// The system's text, as `message` (what every error message that carries an errno prints).
    public var description: String { message }

    /// Runs `call` — a system call that returns a negative number and sets `errno` on failure —
    /// again for as long as it fails with EINTR: the one place the project retries an
    /// interrupted call. Any other failure is thrown.
    @inlinable
    public static func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result
    {
        while true {
            let result = call()
            if result >= 0 { return result }
            let error = Errno.current
            if error != .interrupted { throw error }
        }
    }
}
