import Glibc
import RunWayCore
import RunWaySystem

/// What an export reads in the `RUNWAY` folder (the manifest, a file under a name it would write,
/// a viewer file before rewriting it, a file read back by `--verify`): only a regular file, looked
/// at before it is opened (a device is never opened), opened relative to the folder with
/// `O_NONBLOCK|O_NOFOLLOW` (a FIFO does not wait for a writer, a link is not followed) and checked
/// again on what was opened; never read past a stated bound, and compared with what would be
/// written by size first, then a chunk at a time.
extension ExportDirectory {
    /// Bytes a compare holds at once.
    static let chunk = 1 << 16

    /// What a name holds that is not a regular file, as a runner would say it.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a folder"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "something else"
        }
    }

    /// The bytes of `name`, at most `limit` of them: nil when there is no such file;
    /// `.tooLarge` (nothing read) for a larger one, `.notARegularFile` for anything but a file.
    public func read(_ name: String, atMost limit: Int) throws(ExportError) -> [UInt8]? {
        guard let (fd, size) = try openRegular(name) else { return nil }
        defer { try? fd.close() }
        guard size <= limit else { throw .tooLarge(file: path + "/" + name, bytes: size, limit: limit) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        var buffer = [UInt8](repeating: 0, count: min(Self.chunk, limit + 1))
        while true {
            // One byte past the bound at most: a file that grew since its size was read shows it.
            let n = try readSome(fd, into: &buffer, count: min(buffer.count, limit + 1 - bytes.count), name)
            if n == 0 { return bytes }
            bytes += buffer[0..<n]
            largestRead = max(largestRead, bytes.count)
            guard bytes.count <= limit else {
                throw .tooLarge(file: path + "/" + name, bytes: bytes.count, limit: limit)
            }
        }
    }

    /// Whether `name` is a regular file of exactly `bytes`: false when it is missing or its size
    /// differs (then nothing is read), else compared a chunk at a time; never reads more than
    /// `bytes.count + 1` bytes. `.notARegularFile` for a FIFO, a link, a folder or a device.
    public func holds(_ name: String, exactly bytes: [UInt8]) throws(ExportError) -> Bool {
        guard let (fd, size) = try openRegular(name) else { return false }
        defer { try? fd.close() }
        guard size == bytes.count else { return false }
        var buffer = [UInt8](repeating: 0, count: min(Self.chunk, bytes.count + 1))
        var offset = 0
        while true {
            let n = try readSome(fd, into: &buffer, count: buffer.count, name)
            if n == 0 { return offset == bytes.count }
            largestRead = max(largestRead, n)
            guard offset + n <= bytes.count else { return false }
            let same = buffer.withUnsafeBytes { read in
                bytes.withUnsafeBytes { expected in
                    memcmp(read.baseAddress!, expected.baseAddress! + offset, n) == 0
                }
            }
            guard same else { return false }
            offset += n
        }
    }

    /// `name` opened for reading, with its size; nil when there is no such file.
    func openRegular(_ name: String) throws(ExportError) -> (fd: FileDescriptor, size: Int)? {
        var status = stat()
        // Looked at before opening: opening a device can act on it.
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            let error = Errno.current
            if error == .noSuchFile { return nil }
            throw .system(step: "reading", file: path + "/" + name, error)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .notARegularFile(file: path + "/" + name, kind: Self.kind(status.st_mode))
        }
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try .open(
                name, relativeTo: FileDescriptor(rawValue: descriptor),
                O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)
        } catch {
            if error == .noSuchFile { return nil }
            if error == .tooManySymbolicLinks {
                throw .notARegularFile(file: path + "/" + name, kind: "a symbolic link")
            }
            throw .system(step: "reading", file: path + "/" + name, error)
        }
        // Checked again on what was opened: the name may have been replaced in between.
        do throws(Errno) { status = try fd.status() } catch {
            try? fd.close()
            throw .system(step: "reading", file: path + "/" + name, error)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            try? fd.close()
            throw .notARegularFile(file: path + "/" + name, kind: Self.kind(status.st_mode))
        }
        return (fd, Int(status.st_size))
    }

    /// A name the export may replace holds nothing or a regular file (a link, a FIFO or a folder
    /// under it is never replaced).
    func requireReplaceable(_ name: String) throws(ExportError) {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .notARegularFile(file: path + "/" + name, kind: Self.kind(status.st_mode))
        }
    }

    private func readSome(_ fd: FileDescriptor, into buffer: inout [UInt8], count: Int, _ name: String)
        throws(ExportError) -> Int
    {
        do throws(Errno) { return try fd.read(into: &buffer, count: count) } catch {
            throw .system(step: "reading", file: path + "/" + name, error)
        }
    }
}
