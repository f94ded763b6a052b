#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system error number, as swift-system's `Errno` is: a typed value that errors carry instead
/// of a bare `Int32`, so callers match named cases (`.noSpace`) and messages say the system's
/// own words. (RunWayCore is otherwise free of platform imports; this file and `Math.swift` are
/// the two that name the C library.)
public struct Errno: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
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
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    public static let noMemory = Errno(rawValue: ENOMEM)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let noSuchDevice = Errno(rawValue: ENXIO)
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)

    /// The storage has no room: no space, a file-size limit, or a quota.
    public var isNoSpace: Bool { self == .noSpace || self == .fileTooLarge || self == .quotaExceeded }

    /// The system's text, e.g. "No space left on device".
    public var description: String { String(cString: strerror(rawValue)) }
}
