import CLinux
import Glibc
import RunWayCore
import RunWaySystem

/// Why an export could not write.
public enum ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The destination (the stick's mount point) cannot be opened as a directory.
    case destination(String, Errno)
    /// `RUNWAY` exists and is a symbolic link: never followed.
    case folderIsSymlink(String)
    /// `RUNWAY` exists and is not a directory.
    case folderIsNotADirectory(String)
    /// The stick is mounted read-only (or refuses writes).
    case readOnly(String)
    /// No room: what could not be written, and nothing of it was left behind.
    case full(file: String)
    /// Any other system error, with the step and the file.
    case system(step: String, file: String, Errno)
    /// `--verify` read back something other than what was written.
    case verifyFailed(file: String)
    /// A name the export reads or replaces holds a FIFO, a link, a folder or a device.
    case notARegularFile(file: String, kind: String)
    /// A file larger than the export ever reads of it.
    case tooLarge(file: String, bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .destination(let path, let errno): "cannot open \(path): \(errno)"
        case .folderIsSymlink(let path):
            "\(path) is a symbolic link; it is never followed (remove it and try again)"
        case .folderIsNotADirectory(let path): "\(path) is a file, not a folder (rename it and try again)"
        case .readOnly(let path): "\(path) is read-only: nothing was written"
        case .full(let file): "the stick is full: \(file) was not written (nothing partial is left)"
        case .system(let step, let file, let errno): "\(step) \(file): \(errno)"
        case .verifyFailed(let file): "\(file) does not read back as written"
        case .notARegularFile: "\(fact): it was not read nor replaced (remove or rename it and export again)"
        case .tooLarge: "\(fact): it was not read"
        }
    }

    /// What was found, without what the export did about it (the caller says that).
    public var fact: String {
        switch self {
        case .notARegularFile(let file, let kind): "\(file) is \(kind), not a regular file"
        case .tooLarge(let file, let bytes, let limit):
            "\(file) is \(Self.size(bytes)), more than the \(Self.size(limit)) an export reads of it"
        default: description
        }
    }

    /// `2048.0 MiB`, or `512 bytes` under a mebibyte.
    static func size(_ bytes: Int) -> String {
        guard bytes >= 1 << 20 else { return "\(bytes) bytes" }
        let tenths = (bytes / 1024 * 10 + 512) / 1024
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}

/// The `RUNWAY` folder on a stick, written so that no partial file is ever visible under its
/// final name: each file is created under a temporary name in the same folder (`O_EXCL`, never
/// following a symbolic link), written, fsynced, renamed into place without replacing anything,
/// and the folder fsynced. A file already there is never overwritten.
public final class ExportDirectory {
    public static let folderName = "RUNWAY"
    static let temporaryPrefix = ".runway-partial-"

    /// The folder's path, for messages.
    public let path: String
    let descriptor: Int32
    /// The most bytes of a file any one read held at once (the bound the reader keeps, for tests).
    public internal(set) var largestRead = 0

    /// Opens (creating it if needed) `RUNWAY` inside `destination`, and removes temporary files a
    /// pulled stick left behind.
    public init(destination: String) throws(ExportError) {
        let root = open(destination, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw .destination(destination, .current) }
        defer { close(root) }
        path =
            destination.hasSuffix("/") ? destination + Self.folderName : destination + "/" + Self.folderName
        if mkdirat(root, Self.folderName, 0o755) != 0 {
            let error = Errno.current
            if error == .readOnlyFileSystem {
                // A read-only stick with the folder already there still says "read-only" below.
                var status = stat()
                guard fstatat(root, Self.folderName, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
                    throw .readOnly(destination)
                }
            } else if error.rawValue != EEXIST {
                throw error == .noSpace ? .full(file: path) : .system(step: "creating", file: path, error)
            }
        }
        let folder = openat(root, Self.folderName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else {
            let error = Errno.current
            var status = stat()
            if fstatat(root, Self.folderName, &status, AT_SYMLINK_NOFOLLOW) == 0 {
                if status.st_mode & S_IFMT == S_IFLNK { throw .folderIsSymlink(path) }
                if status.st_mode & S_IFMT != S_IFDIR { throw .folderIsNotADirectory(path) }
            }
            throw .system(step: "opening", file: path, error)
        }
        descriptor = folder
        removeLeftovers()
    }

    deinit { close(descriptor) }

    /// Names in the folder (not `.` and `..`).
    public func names() -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0, let dir = fdopendir(copy) else { return [] }
        defer { closedir(dir) }
        rewinddir(dir)
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public func exists(_ name: String) -> Bool {
        var status = stat()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Writes `bytes` as `name`, which must not exist. `replacing`: the one file that may be
    /// replaced (the manifest), still never partially.
    public func write(_ bytes: [UInt8], as name: String, replacing: Bool = false) throws(ExportError) {
        if replacing { try requireReplaceable(name) }
        let temporary = Self.temporaryPrefix + name
        unlinkat(descriptor, temporary, 0)
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try .open(
                temporary, relativeTo: FileDescriptor(rawValue: descriptor),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions: 0o644)
        } catch {
            throw failure("creating", name, error)
        }
        var closed = false
        do throws(ExportError) {
            func step(_ doing: String, _ call: () throws(Errno) -> Void) throws(ExportError) {
                do throws(Errno) { try call() } catch { throw failure(doing, name, error) }
            }
            // A mebibyte a write at the most.
            for start in stride(from: 0, to: bytes.count, by: 1 << 20) {
                try step("writing") { () throws(Errno) in
                    try fd.writeAll(bytes[start..<min(bytes.count, start + (1 << 20))])
                }
            }
            try step("syncing") { () throws(Errno) in try fd.sync() }
            try rename(temporary, to: name, replacing: replacing)
            // On FAT a file's size and first cluster live in its directory entry, and a rename
            // writes a new entry that only the file's next writeback fills in: synced again under
            // its new name, or a stick pulled now holds it empty (found by make board-test).
            try step("syncing") { () throws(Errno) in try fd.sync() }
            try step("syncing the folder for") { () throws(Errno) in
                try FileDescriptor(rawValue: descriptor).sync()
            }
            closed = true
            try step("closing") { () throws(Errno) in try fd.close() }
        } catch {
            if !closed { try? fd.close() }
            unlinkat(descriptor, temporary, 0)
            throw error
        }
    }

    private func rename(_ temporary: String, to name: String, replacing: Bool) throws(ExportError) {
        if replacing {
            guard renameat(descriptor, temporary, descriptor, name) == 0 else {
                throw failure("renaming", name, .current)
            }
            return
        }
        // RENAME_NOREPLACE: a file that appeared under this name meanwhile is kept. A filesystem
        // without it (EINVAL) gets the check-then-rename, which is as good on a stick only this
        // export writes to.
        if rw_rename_noreplace(descriptor, temporary, descriptor, name) == 0 { return }
        let error = Errno.current
        guard error == .invalidArgument else { throw failure("renaming", name, error) }
        guard !exists(name) else { throw .system(step: "renaming", file: name, Errno(rawValue: EEXIST)) }
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            throw failure("renaming", name, .current)
        }
    }

    private func failure(_ step: String, _ name: String, _ error: Errno) -> ExportError {
        if error.isNoSpace { return .full(file: name) }
        if error == .readOnlyFileSystem { return .readOnly(path) }
        return .system(step: step, file: path + "/" + name, error)
    }

    /// Temporary files of an export that was cut short (stick pulled, power lost).
    private func removeLeftovers() {
        for name in names() where name.hasPrefix(Self.temporaryPrefix) {
            unlinkat(descriptor, name, 0)
        }
    }

    /// fsyncs the folder (after the last write).
    public func sync() {
        fsync(descriptor)
    }
}
