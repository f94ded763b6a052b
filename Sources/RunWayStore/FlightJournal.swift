import CZlib
import Glibc
import RunWayCore
import RunWaySystem

/// The in-flight half of the raw sensor log: a preallocated file beside the logbook
/// (`<logbook>-rawlog`) that each commit appends one deflated, checksummed record to, written
/// straight to the device (`O_DIRECT`, whole 512-byte sectors) and made durable with `fdatasync`.
///
/// Why not commit into SQLite every few seconds: an fsync'd SQLite commit rewrites at least one
/// 4 KB filesystem block of its WAL (measured ~9.5 KB per commit, 8 MiB per hour at one commit
/// every 4 s), four times the SD-card budget. Here a commit writes only the sectors it fills —
/// no page cache, no file growth, so no filesystem metadata — and never rewrites a sector that
/// holds committed data, so a cut mid-write can only lose the record being written.
///
/// The file opens with a header block (`headerBlock` bytes: the current epoch and the size the
/// journal was made with), then the records. The logbook absorbs the records into its `raw_log`
/// table at touchdown, when the file is full, and when it is opened after a power cut; then the
/// journal starts over under a new random epoch — one write, to the header block alone — so
/// records left from an older epoch are never read again. The start-over is the write that
/// comes most (once per epoch, where each record's sector is written once), and before the
/// header block it zeroed the first record's sector: that sector, damaged, read as an empty
/// journal and lost the flight in the air. Now a damaged header costs no record (the epoch is
/// taken from the records), and a damaged first record costs its own seconds.
final class FlightJournal {
    /// One committed batch of raw inputs, as the logbook's `raw_log` row will hold it.
    struct Record: Equatable {
        var flight: Int64
        var seq: Int64
        var until: Double
        var inputs: String
    }

    let path: String
    /// The bytes the records may take, after the header block.
    private(set) var capacity: Int
    /// Whether writes bypass the page cache (`false` where the filesystem refuses `O_DIRECT`,
    /// e.g. tmpfs; recording is as safe, only the SD card wears more).
    private(set) var direct: Bool
    let descriptor: FileDescriptor
    private var sector = 512
    private var epoch = UInt64.random(in: 1...UInt64.max)
    private var index: UInt32 = 0
    /// Where the next record goes (a byte of the file).
    private(set) var offset = FlightJournal.headerBlock
    /// The file's size as last seen: short of `headerBlock + capacity` when it was cut.
    var extent = 0
    /// A cut found when opening (a journal left empty), reported with what `records()` finds.
    var cutAtOpening: JournalDamage?
    /// What the last `records()` found wrong: damaged records, a cut, an unreadable header.
    var damage: [JournalDamage] = []
    /// The journal takes no record until it has started over: its header is unreadable (or
    /// missing, in a journal of the first layout) or the file is shorter than it was made.
    private(set) var needsRestart = false
    /// The most bytes of the file the last reading held at once (`SectorReader.mostHeld`).
    var mostHeldReading = 0
    let buffer: UnsafeMutableRawPointer
    static let bufferSize = 64 * 1024

    /// The I/O buffer: `O_DIRECT` wants memory aligned to the device's sectors.
    private static func alignedBuffer(_ path: String) throws(StoreError) -> UnsafeMutableRawPointer {
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, 4096, bufferSize) == 0, let memory else {
            throw failure(.noMemory, "allocating the raw-log buffer", path)
        }
        return memory
    }

    static let headerSize = 56
    /// The header block: the journal's header in its first bytes, no record. 4 KiB, so that on a
    /// device with 4 KB logical sectors too a start-over writes no block a record lies in.
    static let headerBlock = 4096
    /// "RWJ2": the text deflated (zlib), its length in the header. "RWJ1" records (plain text)
    /// are still read.
    static let magic: UInt32 = 0x324A_5752
    static let plainMagic: UInt32 = 0x314A_5752

    /// Opens the journal, creating and zero-filling it to `capacity` bytes of records the first
    /// time (a one-time write, so a flight never grows the file). An existing journal keeps its
    /// size — its records are not yet in the logbook — and goes on after its last record; one
    /// cut short or without a readable header takes records again once it has started over
    /// (`restart`, after its records are in the logbook). Throws when the space cannot be had,
    /// and `notAJournal` (writing nothing) for a file RunWay did not make.
    init(path: String, capacity: Int) throws(StoreError) {
        self.path = path
        self.capacity = max(capacity / 4096 * 4096, 4096)
        let memory = try Self.alignedBuffer(path)
        buffer = memory
        let existed = Glibc.access(path, F_OK) == 0
        // Non-blocking: a FIFO in the journal's place must not stop the logbook opening.
        let flags = O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK
        do throws(Errno) {
            do throws(Errno) {
                descriptor = try .open(path, flags | FileDescriptor.oDirect, permissions: 0o644)
                direct = true
            } catch  where error == .invalidArgument {
                descriptor = try .open(path, flags, permissions: 0o644)
                direct = false
            }
        } catch {
            free(memory)
            throw Self.failure(error, "opening", path)
        }
        // From here the object is whole: a throw runs `deinit`, which closes and frees.
        extent = try Self.regularFileSize(descriptor, path)
        // One recorder per logbook: the lock is held as long as this journal is open, and the
        // kernel drops it when the process dies, so a power cut or a kill never leaves it held.
        try lock()
        if extent == 0 {
            if existed { cutAtOpening = .truncated(size: 0, expected: nil, path: path) }
            do {
                try zeroFill(to: Self.headerBlock + self.capacity, doing: "preallocating")
                try writeHeader()
            } catch {
                unlink(path)  // the space it took is given back
                throw error
            }
            // The new file's name must survive a cut too.
            let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
            if let directory = try? FileDescriptor.open(folder.isEmpty ? "/" : folder, O_RDONLY | O_CLOEXEC) {
                try? directory.sync()
                try? directory.close()
            }
            return
        }
        let found = try scan()
        if let header = found.header {
            (self.capacity, epoch) = (header.capacity, header.epoch)
            (offset, index) = (found.end, found.nextIndex)
            needsRestart = extent < Self.headerBlock + header.capacity
        } else {
            if found.count == 0, try holdsForeignBytes() {
                throw .notAJournal(reason: "no RunWay header or record in its first 64 KiB", path: path)
            }
            // A journal of the first layout keeps its size; one cut in its header, the size asked.
            self.capacity = max(self.capacity, extent / 4096 * 4096 - Self.headerBlock)
            needsRestart = true
        }
    }

    /// Opens an existing journal only to read its records (salvage): nothing is created or written.
    init(reading path: String) throws(StoreError) {
        self.path = path
        let memory = try Self.alignedBuffer(path)
        buffer = memory
        direct = false
        do throws(Errno) {
            descriptor = try .open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        } catch {
            free(memory)
            throw Self.failure(error, "opening", path)
        }
        extent = try Self.regularFileSize(descriptor, path)
        capacity = max(0, extent - Self.headerBlock)
    }

    deinit {
        try? descriptor.close()
        free(buffer)
    }

    /// The size of the file open at `descriptor`, which must be a regular file: a FIFO, a device
    /// or a socket in the journal's place is refused before anything is read or written.
    private static func regularFileSize(_ descriptor: FileDescriptor, _ path: String) throws(StoreError)
        -> Int
    {
        let status = try io("examining", path) { () throws(Errno) in try descriptor.status() }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw .notAJournal(reason: "not a regular file", path: path)
        }
        return Int(status.st_size)
    }

    /// Takes the journal's lock. A process that is spawning a child shares its open files with
    /// that child until the child's exec closes them, so a lock released a moment ago can still
    /// be held for a few milliseconds: that is retried for up to 200 ms before the journal counts
    /// as another recorder's (a recorder holds it for the whole run).
    private func lock() throws(StoreError) {
        for attempt in 0..<10 {
            if flock(descriptor.rawValue, LOCK_EX | LOCK_NB) == 0 { return }
            let error = Errno.current
            guard error == .wouldBlock else { throw Self.failure(error, "locking", path) }
            if attempt < 9 { usleep(20_000) }
        }
        throw Self.busy(path)
    }

    /// The journal's lock is held: another process is recording into this logbook.
    static func busy(_ path: String) -> StoreError { .recordingElsewhere(path: path) }

    static func failure(_ error: Errno, _ doing: String, _ path: String) -> StoreError {
        .io(error, operation: doing, path: path)
    }

    /// `call`'s system error as the journal's `StoreError` for `doing`.
    static func io<T>(_ doing: String, _ path: String, _ call: () throws(Errno) -> T) throws(StoreError) -> T
    {
        do throws(Errno) { return try call() } catch { throw failure(error, doing, path) }
    }

    /// Writes zeros from the file's end to `size` through the page cache (the end may lie inside
    /// a sector, where `O_DIRECT` cannot write), then syncs: the one-time preallocation, and the
    /// making whole of a journal cut short — past its end only, so no record is touched.
    private func zeroFill(to size: Int, doing: String) throws(StoreError) {
        let flags = fcntl(descriptor.rawValue, F_GETFL)
        if direct { _ = fcntl(descriptor.rawValue, F_SETFL, flags & ~FileDescriptor.oDirect) }
        defer { if direct { _ = fcntl(descriptor.rawValue, F_SETFL, flags) } }
        memset(buffer, 0, Self.bufferSize)
        while extent < size {
            let zeros = UnsafeRawBufferPointer(start: buffer, count: min(Self.bufferSize, size - extent))
            let result = try Self.io(doing, path) { () throws(Errno) in
                try descriptor.write(toAbsoluteOffset: extent, zeros)
            }
            guard result > 0 else { throw Self.failure(.noSpace, doing, path) }
            extent += result
        }
        try Self.io(doing, path) { () throws(Errno) in try descriptor.sync() }
    }

    /// Writes the header block's first sector (the current epoch and capacity) and syncs it.
    private func writeHeader() throws(StoreError) {
        while true {
            let count = max(sector, 512)
            memset(buffer, 0, count)
            JournalHeader(epoch: epoch, capacity: capacity).store(into: buffer)
            if try write(count: count, at: 0, doing: "starting over") { break }
            // A device with 4 KB logical sectors: whole 4 KB blocks, else the page cache.
            if sector < 4096 { sector = 4096 } else { dropDirect() }
        }
        try Self.io("syncing", path) { () throws(Errno) in try descriptor.dataSync() }
    }

    /// Writes `count` bytes of the buffer at `position`. Returns false when the device refused an
    /// `O_DIRECT` write for its alignment (nothing was written).
    private func write(count: Int, at position: Int, doing: String) throws(StoreError) -> Bool {
        let result: Int
        do throws(Errno) {
            result = try descriptor.write(
                toAbsoluteOffset: position, UnsafeRawBufferPointer(start: buffer, count: count))
        } catch {
            if error == .invalidArgument && direct { return false }
            throw Self.failure(error, doing, path)
        }
        guard result == count else { throw Self.failure(.noSpace, doing, path) }
        return true
    }

    /// Falls back to the page cache: as safe (every record is still synced), more wear.
    private func dropDirect() {
        direct = false
        _ = fcntl(descriptor.rawValue, F_SETFL, fcntl(descriptor.rawValue, F_GETFL) & ~FileDescriptor.oDirect)
    }

    /// The bytes of records this journal object has written (the bench's measure of the raw log).
    private(set) var recordBytesWritten = 0

    /// The bytes of records written since the journal started over.
    var heldBytes: Int { offset - Self.headerBlock }

    /// What a record stores: its text deflated. A batch of raw inputs is numbers in a fixed
    /// layout, so it deflates to about a third, and a 4-second batch fits one 512-byte sector.
    static func packed(_ text: [UInt8]) -> [UInt8] {
        var stored = [UInt8](repeating: 0, count: Int(compressBound(uLong(text.count))))
        var count = uLong(stored.count)
        guard compress2(&stored, &count, text, uLong(text.count), Z_BEST_COMPRESSION) == Z_OK else {
            return []
        }
        return Array(stored.prefix(Int(count)))
    }

    /// The text of a stored record; nil when it does not inflate to its recorded length, or
    /// that length is more than deflate can give from so many bytes (zlib's limit is 1032:1): a
    /// damaged length is refused before anything is allocated for it.
    static func unpacked(_ stored: [UInt8], length: Int) -> [UInt8]? {
        guard length >= 0, length <= stored.count * 1032 + 64 else { return nil }
        var text = [UInt8](repeating: 0, count: max(length, 1))
        var count = uLong(length)
        guard uncompress(&text, &count, stored, uLong(stored.count)) == Z_OK, Int(count) == length else {
            return nil
        }
        return Array(text.prefix(length))
    }

    /// The bytes a record takes: its header and stored text, rounded up to whole sectors.
    func span(storing count: Int) -> Int {
        let unit = max(sector, 512)
        return (Self.headerSize + count + unit - 1) / unit * unit
    }

    /// Appends `record` in fresh sectors and makes it durable. Returns false, writing nothing,
    /// when the journal has no room left for it (or must start over first: `needsRestart`).
    func append(_ record: Record) throws(StoreError) -> Bool {
        let text = Array(record.inputs.utf8)
        let stored = Self.packed(text)
        guard !stored.isEmpty || text.isEmpty else {
            throw Self.failure(.noMemory, "deflating a record for", path)
        }
        var span = 0
        while true {
            span = self.span(storing: stored.count)
            guard !needsRestart, span <= Self.bufferSize, offset + span <= Self.headerBlock + capacity,
                offset + span <= extent
            else { return false }
            memset(buffer, 0, span)
            var header = Header(
                epoch: epoch, index: index, flight: record.flight, seq: record.seq, until: record.until,
                length: UInt32(stored.count), span: UInt32(span), textLength: UInt32(text.count))
            header.checksum = header.crc(stored)
            header.store(into: buffer)
            stored.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress {
                    buffer.advanced(by: Self.headerSize).copyMemory(from: base, byteCount: bytes.count)
                }
            }
            if try write(count: span, at: offset, doing: "appending to") { break }
            // A device with 4 KB logical sectors: whole 4 KB blocks, else the page cache.
            if sector < 4096 && offset % 4096 == 0 { sector = 4096 } else { dropDirect() }
        }
        try Self.io("syncing", path) { () throws(Errno) in try descriptor.dataSync() }
        offset += span
        recordBytesWritten += span
        index &+= 1
        return true
    }

    /// Starts over under a new epoch: call once every record read by `records()` is safely in
    /// the logbook. A journal cut short is first made whole again (zeros past its end; when the
    /// card has no room for them, it goes on in the size it has); then the header block alone is
    /// written, so the next open finds an empty journal instead of taking the same records in
    /// again, and no sector that held a record is touched.
    func restart() throws(StoreError) {
        if extent < Self.headerBlock + capacity {
            do {
                try zeroFill(to: Self.headerBlock + capacity, doing: "making the journal whole again")
            } catch {
                capacity = max(0, extent - Self.headerBlock) / 4096 * 4096
            }
        }
        epoch = UInt64.random(in: 1...UInt64.max)
        try writeHeader()
        index = 0
        offset = Self.headerBlock
        (needsRestart, cutAtOpening) = (false, nil)
    }
}
