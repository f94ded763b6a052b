import CZlib
import Glibc
import RunWayCore

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
/// The logbook absorbs the records into its `raw_log` table at touchdown, when the file is
/// full, and when it is opened after a power cut; then the file is reused from its start under a
/// new random epoch, so records left from an older epoch are never read again.
final class FlightJournal {
    /// One committed batch of raw inputs, as the logbook's `raw_log` row will hold it.
    struct Record: Equatable {
        var flight: Int64
        var seq: Int64
        var until: Double
        var inputs: String
    }

    let path: String
    private(set) var capacity: Int
    /// Whether writes bypass the page cache (`false` where the filesystem refuses `O_DIRECT`,
    /// e.g. tmpfs; recording is as safe, only the SD card wears more).
    private(set) var direct: Bool
    private var descriptor: Int32
    private var sector = 512
    private var epoch = UInt64.random(in: 1...UInt64.max)
    private var index: UInt32 = 0
    private(set) var offset = 0
    private let buffer: UnsafeMutableRawPointer
    static let bufferSize = 64 * 1024

    /// The I/O buffer: `O_DIRECT` wants memory aligned to the device's sectors.
    private static func alignedBuffer(_ path: String) throws(StoreError) -> UnsafeMutableRawPointer {
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, 4096, bufferSize) == 0, let memory else {
            throw failure(ENOMEM, "allocating the raw-log buffer", path)
        }
        return memory
    }

    static let headerSize = 56
    /// No header block yet (a stub for the tests: records start at byte 0).
    static let headerBlock = 0
    /// "RWJ2": the text deflated (zlib), its length in the header. "RWJ1" records (plain text)
    /// are still read.
    static let magic: UInt32 = 0x324A_5752
    static let plainMagic: UInt32 = 0x314A_5752

    /// Opens the journal, creating and zero-filling it to `capacity` bytes the first time (a
    /// one-time write, so a flight never grows the file). An existing journal keeps its size —
    /// its records are not yet in the logbook. Throws when the space cannot be had.
    init(path: String, capacity: Int) throws(StoreError) {
        self.path = path
        self.capacity = capacity / 4096 * 4096
        let memory = try Self.alignedBuffer(path)
        buffer = memory
        var opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC | Self.oDirect, 0o644)
        direct = opened >= 0
        if opened < 0 && errno == EINVAL { opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
        guard opened >= 0 else {
            let code = errno
            free(memory)
            throw Self.failure(code, "opening", path)
        }
        descriptor = opened
        // From here the object is whole: a throw runs `deinit`, which closes and frees.
        // One recorder per logbook: the lock is held as long as this journal is open, and the
        // kernel drops it when the process dies, so a power cut or a kill never leaves it held.
        try lock()
        var status = stat()
        let existing = fstat(descriptor, &status) == 0 ? Int(status.st_size) / 4096 * 4096 : 0
        if existing >= 4096 {
            self.capacity = existing
            return
        }
        do {
            try preallocate()
        } catch {
            unlink(path)  // the space it took is given back
            throw error
        }
    }

    /// Opens an existing journal only to read its records (salvage): nothing is created or written.
    init(reading path: String) throws(StoreError) {
        self.path = path
        let memory = try Self.alignedBuffer(path)
        buffer = memory
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        direct = false
        guard descriptor >= 0 else {
            let code = errno
            free(memory)
            throw Self.failure(code, "opening", path)
        }
        var status = stat()
        capacity = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    deinit {
        close(descriptor)
        free(buffer)
    }

    /// Takes the journal's lock. A process that is spawning a child shares its open files with
    /// that child until the child's exec closes them, so a lock released a moment ago can still
    /// be held for a few milliseconds: that is retried for up to 200 ms before the journal counts
    /// as another recorder's (a recorder holds it for the whole run).
    private func lock() throws(StoreError) {
        for attempt in 0..<10 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return }
            let code = errno
            guard code == EWOULDBLOCK else { throw Self.failure(code, "locking", path) }
            if attempt < 9 { usleep(20_000) }
        }
        throw Self.busy(path)
    }

    /// `O_DIRECT` is the kernel's ABI, per architecture (Glibc hides it behind `_GNU_SOURCE`).
    #if arch(arm64) || arch(arm)
        static let oDirect: Int32 = 0o200000
    #else
        static let oDirect: Int32 = 0o40000
    #endif

    /// The journal's lock is held: another process is recording into this logbook.
    static func busy(_ path: String) -> StoreError { .recordingElsewhere(path: path) }

    static func failure(_ code: Int32, _ doing: String, _ path: String) -> StoreError {
        .io(Errno(rawValue: code), operation: doing, path: path)
    }

    private func preallocate() throws(StoreError) {
        memset(buffer, 0, Self.bufferSize)
        var written = 0
        while written < capacity {
            let count = min(Self.bufferSize, capacity - written)
            if try !write(count: count, at: written, doing: "preallocating") {
                dropDirect()
                continue
            }
            written += count
        }
        guard ftruncate(descriptor, off_t(capacity)) == 0, fsync(descriptor) == 0 else {
            throw Self.failure(errno, "preallocating", path)
        }
        // The new file's name must survive a cut too.
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let directory = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Writes `count` bytes of the buffer at `position`. Returns false when the device refused an
    /// `O_DIRECT` write for its alignment (nothing was written).
    private func write(count: Int, at position: Int, doing: String) throws(StoreError) -> Bool {
        while true {
            let result = pwrite(descriptor, buffer, count, off_t(position))
            if result == count { return true }
            if result < 0 && errno == EINTR { continue }
            if result < 0 && errno == EINVAL && direct { return false }
            throw Self.failure(result < 0 ? errno : ENOSPC, doing, path)
        }
    }

    /// Falls back to the page cache: as safe (every record is still synced), more wear.
    private func dropDirect() {
        direct = false
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~Self.oDirect)
    }

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

    /// The text of a stored record; nil when it does not inflate to its recorded length.
    static func unpacked(_ stored: [UInt8], length: Int) -> [UInt8]? {
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
    /// when the journal has no room left for it.
    func append(_ record: Record) throws(StoreError) -> Bool {
        let text = Array(record.inputs.utf8)
        let stored = Self.packed(text)
        guard !stored.isEmpty || text.isEmpty else {
            throw Self.failure(ENOMEM, "deflating a record for", path)
        }
        var span = 0
        while true {
            span = self.span(storing: stored.count)
            guard span <= Self.bufferSize, offset + span <= capacity else { return false }
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
        guard fdatasync(descriptor) == 0 else { throw Self.failure(errno, "syncing", path) }
        offset += span
        index &+= 1
        return true
    }

    /// How far past a damaged record the reader looks for the next good one: a zeroed sector,
    /// a flipped bit or a few garbage bytes spoil one record (one or two sectors), and 64 KiB
    /// (the I/O buffer) holds well over a minute of records.
    static let resyncWindow = 64 * 1024

    /// Every record of the journal's current epoch, in order. A damaged record (torn, flipped,
    /// overwritten) is skipped: the reader looks up to `resyncWindow` further, sector by sector,
    /// for a valid record of the same epoch with a later index, and reads on from there; the
    /// raw log then has a hole in its sequence numbers, which the flight reports
    /// (`Logbook.rawLogGaps`). The records end where nothing valid follows. A journal whose
    /// first sector is zero was started over and is empty (one read); when the first record is
    /// damaged, the epoch is taken from the first valid record after it.
    func records() throws(StoreError) -> [Record] {
        var file: [UInt8] = []
        /// Reads on, in aligned chunks, until `count` bytes are in or the file ends.
        func read(upTo count: Int) throws(StoreError) {
            while file.count < Swift.min(count, capacity) {
                let result = pread(
                    descriptor, buffer, Swift.min(Self.bufferSize, capacity - file.count), off_t(file.count))
                if result < 0 && errno == EINTR { continue }
                if result < 0 { throw Self.failure(errno, "reading", path) }
                if result == 0 { return }
                file.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: result))
            }
        }
        /// The valid record at `position` of `epoch` (any epoch when nil), if there is one.
        func record(at position: Int, epoch: UInt64?) throws(StoreError) -> (Header, Record)? {
            try read(upTo: position + Self.headerSize)
            guard position + Self.headerSize <= file.count,
                let header = file.withUnsafeBytes({ Header(loading: $0.baseAddress!.advanced(by: position)) }
                ),
                header.span >= Self.headerSize, Int(header.length) <= Int(header.span) - Self.headerSize,
                header.epoch == (epoch ?? header.epoch)
            else { return nil }
            try read(upTo: position + Int(header.span))
            guard position + Int(header.span) <= file.count else { return nil }
            let stored = Array(
                file[position + Self.headerSize..<position + Self.headerSize + Int(header.length)])
            guard header.crc(stored) == header.checksum,
                let text = header.plain ? stored : Self.unpacked(stored, length: Int(header.textLength))
            else { return nil }
            let record = Record(
                flight: header.flight, seq: header.seq, until: header.until,
                inputs: String(decoding: text, as: UTF8.self))
            return (header, record)
        }
        try read(upTo: 512)
        if file.prefix(512).allSatisfy({ $0 == 0 }) { return [] }
        var found: [Record] = []
        var position = 0
        var epoch: UInt64?
        var nextIndex: UInt32 = 0
        scanning: while position < capacity {
            if let (header, record) = try record(at: position, epoch: epoch), header.index == nextIndex {
                found.append(record)
                epoch = header.epoch
                nextIndex = header.index &+ 1
                position += Int(header.span)
                continue
            }
            // Damaged, or the end: a later record of the same epoch means damage.
            var probe = position + 512
            while probe < Swift.min(capacity, position + Self.resyncWindow) {
                if let (header, _) = try record(at: probe, epoch: epoch), header.index > nextIndex,
                    header.index &- nextIndex < UInt32(Self.resyncWindow / 512)
                {
                    nextIndex = header.index
                    position = probe
                    continue scanning
                }
                probe += 512
            }
            break
        }
        return found
    }

    /// Starts over from the file's beginning under a new epoch: call once every record read by
    /// `records()` is safely in the logbook. The first sector is zeroed on the device, so the
    /// next open finds an empty journal instead of taking the same records in again.
    func restart() throws(StoreError) {
        let count = max(sector, 512)
        memset(buffer, 0, count)
        if try !write(count: count, at: 0, doing: "starting over") {
            dropDirect()
            _ = try write(count: count, at: 0, doing: "starting over")
        }
        guard fdatasync(descriptor) == 0 else { throw Self.failure(errno, "syncing", path) }
        epoch = UInt64.random(in: 1...UInt64.max)
        index = 0
        offset = 0
    }

    /// A record's fixed header, little-endian: magic, epoch, index, flight, seq, until, stored
    /// length, span, text length, then a CRC-32 of all that and the stored bytes. (A plain
    /// "RWJ1" record has no text length; its CRC sits where the text length would.)
    struct Header {
        var plain = false
        var epoch: UInt64
        var index: UInt32
        var flight: Int64
        var seq: Int64
        var until: Double
        var length: UInt32
        var span: UInt32
        var textLength: UInt32
        var checksum: UInt32 = 0

        init(
            epoch: UInt64, index: UInt32, flight: Int64, seq: Int64, until: Double, length: UInt32,
            span: UInt32, textLength: UInt32
        ) {
            (self.epoch, self.index, self.flight, self.seq) = (epoch, index, flight, seq)
            (self.until, self.length, self.span, self.textLength) = (until, length, span, textLength)
        }

        init?(loading p: UnsafeRawPointer) {
            func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
                T(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            let magic = load(0, UInt32.self)
            guard magic == FlightJournal.magic || magic == FlightJournal.plainMagic else { return nil }
            plain = magic == FlightJournal.plainMagic
            epoch = load(4, UInt64.self)
            index = load(12, UInt32.self)
            flight = load(16, Int64.self)
            seq = load(24, Int64.self)
            until = Double(bitPattern: load(32, UInt64.self))
            length = load(40, UInt32.self)
            span = load(44, UInt32.self)
            textLength = plain ? length : load(48, UInt32.self)
            checksum = load(plain ? 48 : 52, UInt32.self)
        }

        /// The header's bytes before the checksum.
        var fields: [UInt8] {
            var bytes: [UInt8] = []
            func put<T: FixedWidthInteger>(_ value: T) {
                withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
            }
            put(plain ? FlightJournal.plainMagic : FlightJournal.magic)
            put(epoch)
            put(index)
            put(flight)
            put(seq)
            put(until.bitPattern)
            put(length)
            put(span)
            if !plain { put(textLength) }
            return bytes
        }

        func store(into p: UnsafeMutableRawPointer) {
            let bytes = fields
            bytes.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            p.storeBytes(of: checksum.littleEndian, toByteOffset: bytes.count, as: UInt32.self)
        }

        /// zlib's CRC-32 (IEEE 802.3): catches a torn or stale sector.
        func crc(_ stored: [UInt8]) -> UInt32 {
            let bytes = fields + stored
            return UInt32(truncatingIfNeeded: CZlib.crc32(0, bytes, uInt(bytes.count)))
        }
    }
}
