/// A column of fixed-width integers held in chunks of `chunkLength` values, each chunk allocated
/// once at its full length (issue 29: flat memory on a long run).
///
/// Why not an `Array`: an array that grows doubles its capacity, so it holds up to twice what it
/// counts, and each doubling copies the whole list into a new block and frees the old one — a
/// day's route at 10 Hz left the heap fragmented by blocks of every size. Here growing allocates
/// one more chunk of the same size (256 values: 1 KiB of `Int32`), never copies what is held,
/// and what is spare is at most the last chunk's unwritten tail, however long the flight.
///
/// A chunk is written by index, never appended to: a chunk shared with a copy of the flight
/// (value semantics) is copied at its own length on the next write, not grown by doubling.
struct ChunkedColumn<Element: FixedWidthInteger & Sendable>: Sendable {
    static var chunkLength: Int { 256 }

    private var chunks: [[Element]] = []
    private(set) var count = 0

    mutating func append(_ value: Element) {
        let (chunk, slot) = count.quotientAndRemainder(dividingBy: Self.chunkLength)
        if chunk == chunks.count {
            chunks.append([Element](repeating: 0, count: Self.chunkLength))
        }
        chunks[chunk][slot] = value
        count += 1
    }

    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "index \(index) outside 0..<\(count)")
            let (chunk, slot) = index.quotientAndRemainder(dividingBy: Self.chunkLength)
            return chunks[chunk][slot]
        }
        set {
            precondition(index >= 0 && index < count, "index \(index) outside 0..<\(count)")
            let (chunk, slot) = index.quotientAndRemainder(dividingBy: Self.chunkLength)
            chunks[chunk][slot] = newValue
        }
    }

    /// Keeps the first `length` values and frees every chunk past them.
    mutating func truncate(to length: Int) {
        precondition(length >= 0 && length <= count)
        count = length
        let needed = (length + Self.chunkLength - 1) / Self.chunkLength
        if needed == 0 {
            chunks = []
        } else {
            chunks.removeLast(chunks.count - needed)
        }
    }

    /// The bytes the column holds on the heap: every chunk at its capacity (what was allocated,
    /// not what is written) with its array header, and the list of chunks.
    var bytes: Int {
        let header = 4 * MemoryLayout<Int>.stride
        let list = chunks.capacity == 0 ? 0 : header + chunks.capacity * MemoryLayout<[Element]>.stride
        return chunks.reduce(list) { $0 + header + $1.capacity * MemoryLayout<Element>.stride }
    }
}

/// Doubles as the in-flight columns hold them: scaled, rounded to the nearest integer, clamped
/// to the column's range. Decoding divides by the scale, so a value with as many decimals as the
/// scale has zeros comes back as the nearest double to its decimal text (37.5275902 at 1e7).
enum Quantised {
    static func encode<T: FixedWidthInteger>(_ value: Double, scale: Double, as _: T.Type = T.self) -> T {
        let scaled = (value * scale).rounded()
        if scaled.isNaN { return 0 }
        if scaled <= Double(T.min) { return T.min }
        if scaled >= Double(T.max) { return T.max }
        return T(scaled)
    }

    static func decode<T: FixedWidthInteger>(_ value: T, scale: Double) -> Double {
        Double(value) / scale
    }

    /// An optional kept with `missing` for nil: a value that would encode as `missing` is
    /// clamped one short of it.
    static func encode<T: FixedWidthInteger>(_ value: Double?, scale: Double, missing: T) -> T {
        guard let value, value.isFinite else { return missing }
        let encoded: T = encode(value, scale: scale)
        guard encoded == missing else { return encoded }
        return missing == T.max ? missing - 1 : missing + 1
    }

    static func decode<T: FixedWidthInteger>(_ value: T, scale: Double, missing: T) -> Double? {
        value == missing ? nil : decode(value, scale: scale)
    }
}
