import CLinux
import Glibc

/// An open file descriptor, in swift-system's shape: a plain `Int32` with the calls made on it.
/// Every call is made again when a signal interrupts it (`Errno.retryingInterrupts`) and throws the `Errno` of any other
/// failure; a short read or write is returned as it is (callers that treat one specially still
/// see it), and `writeAll` writes on after a short write until every byte is out. It owns
/// nothing: whoever opened it closes it.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// `O_DIRECT`, as this architecture's C headers define it (see CLinux's shim).
    public static let oDirect: Int32 = rw_o_direct()

    /// open(2).
    public static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0) throws(Errno)
        -> FileDescriptor
    {
        FileDescriptor(rawValue: try Errno.retryingInterrupts { Glibc.open(path, flags, permissions) })
    }

    /// openat(2): `path` relative to the directory open at `directory`.
    public static func open(
        _ path: String, relativeTo directory: FileDescriptor, _ flags: Int32, permissions: mode_t = 0
    ) throws(Errno) -> FileDescriptor {
        FileDescriptor(
            rawValue: try Errno.retryingInterrupts { openat(directory.rawValue, path, flags, permissions) })
    }

    /// read(2): the bytes read, 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try Errno.retryingInterrupts { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// read(2) into `bytes[start..<start + count]` (`count` nil: to the array's end).
    public func read(into bytes: inout [UInt8], from start: Int = 0, count: Int? = nil) throws(Errno) -> Int {
        let result = bytes.withUnsafeMutableBytes { buffer in
            let window = UnsafeMutableRawBufferPointer(
                rebasing: buffer[start..<start + (count ?? buffer.count - start)])
            return Result { () throws(Errno) in try read(into: window) }
        }
        return try result.get()
    }

    /// pread(2): the bytes read at `offset`, 0 at the end of the file.
    public func read(fromAbsoluteOffset offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(Errno)
        -> Int
    {
        try Errno.retryingInterrupts { pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// recv(2) with `flags` (`MSG_DONTWAIT`: `.wouldBlock` when nothing is there).
    public func receive(into buffer: UnsafeMutableRawBufferPointer, flags: Int32 = 0) throws(Errno) -> Int {
        try Errno.retryingInterrupts { recv(rawValue, buffer.baseAddress, buffer.count, flags) }
    }

    /// write(2): the bytes written, perhaps fewer than `buffer` holds.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try Errno.retryingInterrupts { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// write(2) of a slice of an array's bytes: the bytes written, perhaps fewer.
    public func write(_ bytes: ArraySlice<UInt8>) throws(Errno) -> Int {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try write(buffer) } }.get()
    }

    /// pwrite(2): the bytes written at `offset`, perhaps fewer than `buffer` holds.
    public func write(toAbsoluteOffset offset: Int, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try Errno.retryingInterrupts { pwrite(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Writes every byte of `buffer`, writing on after a short write. A failure is thrown with
    /// what was written before it lost (the caller cannot tell how much went out; none of the
    /// project's callers needs to).
    public func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            offset += try write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
        }
    }

    /// `writeAll` of an array's bytes.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        try writeAll(bytes[...])
    }

    /// `writeAll` of a slice of an array's bytes.
    public func writeAll(_ bytes: ArraySlice<UInt8>) throws(Errno) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try writeAll(buffer) } }.get()
    }

    /// fsync(2).
    public func sync() throws(Errno) {
        _ = try Errno.retryingInterrupts { fsync(rawValue) }
    }

    /// fdatasync(2).
    public func dataSync() throws(Errno) {
        _ = try Errno.retryingInterrupts { fdatasync(rawValue) }
    }

    /// fstat(2).
    public func status() throws(Errno) -> stat {
        var status = stat()
        _ = try Errno.retryingInterrupts { fstat(rawValue, &status) }
        return status
    }

    /// close(2). Never retried: on Linux the descriptor is released even when close reports an
    /// interruption, and a retry could close a descriptor another thread has just been given.
    public func close() throws(Errno) {
        guard Glibc.close(rawValue) == 0 else { throw Errno.current }
    }

    /// A pipe's two ends, both close-on-exec.
    public static func pipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw Errno.current }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }
}
