import CZlib
import Glibc
import RunWaySystem

/// Reading the journal back: the header block, then the records of its epoch, sector by sector,
/// across damage, up to where the records end or the file does.
extension FlightJournal {
    /// How much of a file is looked at to tell a foreign file from a damaged journal (the I/O
    /// buffer: well over a minute of records).
    static let resyncWindow = 64 * 1024

    /// What a reading of the journal found.
    struct Scan {
        var header: JournalHeader?
        /// How many records of the epoch were read (each handed to the scan's `each` as read).
        var count = 0
        /// Where the records end: the next record goes there.
        var end: Int
        var nextIndex: UInt32 = 0
    }

    /// Every record of the journal's current epoch, in order. A damaged record (torn, flipped,
    /// overwritten) is skipped: the reader looks on through the rest of the file, sector by
    /// sector, for a valid record of the same epoch with a later index, and reads on from there; the
    /// raw log then has a hole in its sequence numbers, which the flight reports
    /// (`Logbook.rawLogGaps`). The records end where nothing valid follows, or where the file
    /// does. What was wrong is left in `damage`.
    func records() throws(StoreError) -> [Record] {
        var records: [Record] = []
        _ = try scan { records.append($0) }
        return records
    }

    /// Reads the header and the records. The epoch is the header's; without a readable header
    /// (damaged, or a journal of the first layout, whose records start at byte 0) it is the
    /// first valid record's, so a damaged header loses nothing and a damaged first record only
    /// itself. Each record goes to `each` as it is read, and the reader keeps only the bytes from
    /// the record in hand on (`SectorReader.release`): absorbing a full 4 MiB journal held the
    /// whole file and every record's text at once, 25.6 MiB of heap at its peak, which glibc kept
    /// as the daemon's RSS (issue 29, heaptrack on `runway-bench memory --hours 10 --rate 10`).
    func scan(_ each: (Record) throws(StoreError) -> Void = { _ in }) throws(StoreError) -> Scan {
        if let status = try? descriptor.status() { extent = Int(status.st_size) }
        var reader = SectorReader(journal: self)
        let header = try reader.header()
        var result = Scan(header: header, end: header == nil ? 0 : Self.headerBlock)
        var found: [JournalDamage] = cutAtOpening.map { [$0] } ?? []
        var epoch = header?.epoch
        var firstAt: Int?
        var position = result.end
        scanning: while position < extent {
            if let (record, index) = try reader.record(at: position, epoch: epoch),
                epoch == nil || index == result.nextIndex
            {
                if epoch == nil, index > 0 {
                    found.append(.unreadableRecords(Int(index), offset: 0, path: path))
                }
                firstAt = firstAt ?? position
                try each(record.record)
                result.count += 1
                (epoch, result.nextIndex) = (record.epoch, index &+ 1)
                position += Int(record.span)
                reader.release(before: position)
                continue
            }
            // Damaged, or the end: a later record of the same epoch means damage. The whole rest
            // of the file is looked at, not a window: a power cut can lose an SD card's whole
            // erase block (128 KiB to 4 MiB), and a record of this epoch past it is still good.
            var probe = position + 512
            while probe < extent {
                if let (record, index) = try reader.record(at: probe, epoch: epoch),
                    index >= result.nextIndex,
                    index &- result.nextIndex < UInt32(clamping: extent / 512 + 1)
                {
                    let skipped = Int(index &- result.nextIndex)
                    if skipped > 0 { found.append(.unreadableRecords(skipped, offset: position, path: path)) }
                    if epoch == nil { epoch = record.epoch }
                    result.nextIndex = index
                    position = probe
                    continue scanning
                }
                probe += 512
                // The probe never goes back: what lies behind it is not held (a journal taken in
                // before it is full is probed through its empty rest, up to 4 MiB).
                reader.release(before: probe)
            }
            break
        }
        result.end = Swift.max(position, Self.headerBlock)
        if header == nil, let firstAt, firstAt >= Self.headerBlock {
            found.insert(.unreadableHeader(path: path), at: 0)
        }
        if let header, extent < Self.headerBlock + header.capacity {
            found.append(.truncated(size: extent, expected: Self.headerBlock + header.capacity, path: path))
        } else if header == nil, extent > 0, extent < Self.headerBlock || extent % 512 != 0 {
            found.append(.truncated(size: extent, expected: nil, path: path))
        }
        damage = found
        mostHeldReading = reader.mostHeld
        return result
    }

    /// Whether the file holds bytes that are neither records nor zeros past its first sector: a
    /// file RunWay did not make (a damaged header alone leaves the rest zero or records).
    func holdsForeignBytes() throws(StoreError) -> Bool {
        var reader = SectorReader(journal: self)
        try reader.read(upTo: Self.resyncWindow)
        return reader.file.dropFirst(512).contains { $0 != 0 }
    }
}

/// The file's bytes from `base` on, read in aligned chunks as far as they are asked for.
struct SectorReader {
    let journal: FlightJournal
    /// The bytes at `base ..< base + file.count` of the file.
    var file: [UInt8] = []
    /// The file offset of `file[0]`: a multiple of the I/O buffer, so reads stay aligned.
    private(set) var base = 0
    /// The most bytes the reader held at once (issue 29's bound: a few I/O buffers).
    private(set) var mostHeld = 0

    /// The offset up to which the file has been read.
    var end: Int { base + file.count }

    /// Reads on until the file's first `count` bytes are in or the file ends.
    mutating func read(upTo count: Int) throws(StoreError) {
        // Whole buffers at aligned offsets (`O_DIRECT`), however the file ends.
        while end < Swift.min(count, journal.extent) {
            let whole = UnsafeMutableRawBufferPointer(start: journal.buffer, count: FlightJournal.bufferSize)
            let at = end
            let result = try FlightJournal.io("reading", journal.path) { () throws(Errno) in
                try journal.descriptor.read(fromAbsoluteOffset: at, into: whole)
            }
            if result == 0 { return }
            let kept = Swift.min(result, journal.extent - end)
            file.append(contentsOf: UnsafeRawBufferPointer(start: journal.buffer, count: kept))
            mostHeld = Swift.max(mostHeld, file.count)
        }
    }

    /// Forgets the bytes before `offset`'s I/O buffer once a few buffers lie behind it: nothing
    /// before the record in hand is read again (a damaged record is probed for further on).
    mutating func release(before offset: Int) {
        let behind = (offset - base) / FlightJournal.bufferSize * FlightJournal.bufferSize
        guard behind >= 2 * FlightJournal.bufferSize else { return }
        file.removeFirst(Swift.min(behind, file.count))
        base += behind
    }

    /// The journal's header, if it reads.
    mutating func header() throws(StoreError) -> JournalHeader? {
        try read(upTo: JournalHeader.size)
        guard file.count >= JournalHeader.size else { return nil }
        return file.withUnsafeBytes { JournalHeader(loading: $0.baseAddress!) }
    }

    /// The valid record at `position` of `epoch` (any epoch when nil), with its header and index.
    mutating func record(at position: Int, epoch: UInt64?) throws(StoreError) -> (
        (record: FlightJournal.Record, epoch: UInt64, span: UInt32), UInt32
    )? {
        try read(upTo: position + FlightJournal.headerSize)
        guard position >= base, position + FlightJournal.headerSize <= end,
            let header = file.withUnsafeBytes({
                FlightJournal.Header(loading: $0.baseAddress!.advanced(by: position - base))
            }),
            header.span >= FlightJournal.headerSize,
            Int(header.length) <= Int(header.span) - FlightJournal.headerSize,
            header.epoch == (epoch ?? header.epoch)
        else { return nil }
        try read(upTo: position + Int(header.span))
        guard position + Int(header.span) <= end else { return nil }
        let start = position - base + FlightJournal.headerSize
        let stored = Array(file[start..<start + Int(header.length)])
        guard header.crc(stored) == header.checksum,
            let text = header.plain ? stored : FlightJournal.unpacked(stored, length: Int(header.textLength))
        else { return nil }
        let record = FlightJournal.Record(
            flight: header.flight, seq: header.seq, until: header.until,
            inputs: String(decoding: text, as: UTF8.self))
        return ((record, header.epoch, header.span), header.index)
    }
}

/// The journal's own header, in the first bytes of its header block, little-endian: "RWJH",
/// format version, epoch, capacity (bytes of records), then a CRC-32 of those.
struct JournalHeader: Equatable {
    static let magic: UInt32 = 0x484A_5752
    static let version: UInt32 = 1
    static let size = 28
    var epoch: UInt64
    var capacity: Int

    init(epoch: UInt64, capacity: Int) {
        (self.epoch, self.capacity) = (epoch, capacity)
    }

    init?(loading p: UnsafeRawPointer) {
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            T(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: T.self))
        }
        guard load(0, UInt32.self) == Self.magic, load(4, UInt32.self) == Self.version else { return nil }
        epoch = load(8, UInt64.self)
        let capacity = load(16, UInt64.self)
        guard capacity <= UInt64(Int32.max) else { return nil }
        self.capacity = Int(capacity)
        guard load(24, UInt32.self) == Self.crc(of: fields) else { return nil }
    }

    var fields: [UInt8] {
        var bytes: [UInt8] = []
        func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        put(Self.magic)
        put(Self.version)
        put(epoch)
        put(UInt64(capacity))
        return bytes
    }

    static func crc(of bytes: [UInt8]) -> UInt32 {
        UInt32(truncatingIfNeeded: CZlib.crc32(0, bytes, uInt(bytes.count)))
    }

    func store(into p: UnsafeMutableRawPointer) {
        let bytes = fields + withUnsafeBytes(of: Self.crc(of: fields).littleEndian) { Array($0) }
        bytes.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    }
}

extension FlightJournal {
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
