import RunWayCore

/// The compact form of a batch of raw inputs (issue 29): the plain form's lines and fields, each
/// number written as the difference from the same field of the previous input of its kind,
/// counted in the unit the board delivers it in (gpsd: time to the millisecond, latitude and
/// longitude to 1e-9°, speed, altitude and error to the millimetre, track to 1e-4°; the BMP280:
/// 1/256 Pa). A number that is not a whole count of its unit is written as it is, after `=`, so
/// every value comes back bit for bit. The first line is the mark `D`; each batch starts from
/// zero, so a damaged batch never costs the next one.
///
/// Why: a 10 Hz fix is ~70 characters plain, ~16 as differences. Measured on the bench's 10 Hz
/// hour (902 batches, each deflated as the journal stores it): 894 KB plain → 636 KB compact,
/// so a 4-second batch takes 2 sectors of the raw-log journal instead of 3 (1.37 → 0.92 MB per
/// hour written in flight). A binary form with varints measured 581 KB — the same 2 sectors.
extension RawLog {
    /// The first line of a compact batch (no plain line starts with it).
    static let compactMark = "D"

    /// The unit of each field after the tag (time first), as what a count is divided by.
    static func divisors(_ tag: Substring) -> [Double] {
        switch tag {
        case "F": [1e3, 1e9, 1e9, 1e3, 1e3, 1e4, 1e3, 1]
        case "P": [1e3, 256]
        case "B": [1e3, 1, 1, 1e3, 1e3]
        default: [1e3]
        }
    }

    /// `value` as a whole count of 1/`divisor`, when that count gives it back bit for bit
    /// (`Double(n) / divisor` is correctly rounded, as reading the decimal text is).
    static func count(_ value: Double, per divisor: Double) -> Int64? {
        let scaled = (value * divisor).rounded()
        guard scaled.magnitude < 0x1p53 else { return nil }  // also NaN and infinity
        let n = Int64(scaled)
        return (Double(n) / divisor).bitPattern == value.bitPattern ? n : nil
    }

    /// The batch in compact form; `decode` reads it back to the same inputs.
    public static func compact(_ inputs: [EngineInput]) -> String {
        var previous: [Substring: [Int64]] = [:]
        var lines = [compactMark]
        for line in inputs.compactMap(encode) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            let tag = fields[0]
            let divisors = Self.divisors(tag)
            var last = previous[tag] ?? []
            if last.count < fields.count { last += Array(repeating: 0, count: fields.count - last.count) }
            var out = [String(tag)]
            for i in 1..<fields.count {
                guard let value = Double(fields[i]) else {
                    out.append(String(fields[i]))  // empty: no value
                    continue
                }
                let divisor = i - 1 < divisors.count ? divisors[i - 1] : 1e3
                if let n = count(value, per: divisor) {
                    out.append(String(n - last[i]))
                    last[i] = n
                } else {
                    out.append("=\(value)")
                }
            }
            previous[tag] = last
            lines.append(out.joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// The inputs of a compact batch. A field that does not read (a flipped byte) is that value
    /// missing, as in the plain form; the fields after it still read.
    ///
    /// Read byte by byte (issue 29: landing a 24 h 10 Hz flight reads its 1.1 million inputs
    /// three times; splitting each line into substrings was most of that). It reads exactly what
    /// reading each field as `Int64(field)` (or `Double` after `=`) read: `CompactRawLogTests`
    /// holds it to that reading over damaged text too.
    static func decodeCompact(_ text: String) -> [EngineInput] {
        var text = text
        return text.withUTF8 { decodeCompact(bytes: $0) }
    }

    /// The tags a compact batch holds, each with its own differences (an index into them).
    private static let tags: [Substring] = ["F", "P", "B", "T", "PA", "RE", "TP", "LP", "BL"]
    private static let tagDivisors: [[Double]] = tags.map { divisors($0) }

    private static func decodeCompact(bytes: UnsafeBufferPointer<UInt8>) -> [EngineInput] {
        let comma = UInt8(ascii: ",")
        let newline = UInt8(ascii: "\n")
        var previous = [[Int64]](repeating: [], count: tags.count)
        var others: [Substring: [Int64]] = [:]
        var inputs: [EngineInput] = []
        var values: [Double?] = []
        let n = bytes.count
        // The first line is the mark.
        var i = 0
        while i < n, bytes[i] != newline { i += 1 }
        i += 1
        while i < n {
            var end = i
            while end < n, bytes[end] != newline { end += 1 }
            defer { i = end + 1 }
            guard end > i else { continue }  // an empty line: none (as `split` drops it)
            // The tag, then each field from the first comma on.
            var tagEnd = i
            while tagEnd < end, bytes[tagEnd] != comma { tagEnd += 1 }
            let tagBytes = UnsafeBufferPointer(rebasing: bytes[i..<tagEnd])
            let known = tagIndex(tagBytes)
            let tag = known.map { tags[$0] } ?? Substring(String(decoding: tagBytes, as: UTF8.self))
            let divisors = known.map { tagDivisors[$0] } ?? Self.divisors(tag)
            var last = known.map { previous[$0] } ?? others[tag] ?? []
            values.removeAll(keepingCapacity: true)
            values.append(nil)
            var field = 1
            var p = tagEnd
            while p < end {
                // bytes[p] is a comma: the field runs from p + 1 to the next comma or the end.
                let start = p + 1
                var stop = start
                while stop < end, bytes[stop] != comma { stop += 1 }
                p = stop
                if last.count <= field {
                    last.append(contentsOf: repeatElement(0, count: field + 1 - last.count))
                }
                defer { field += 1 }
                if start < stop, bytes[start] == UInt8(ascii: "=") {
                    let rest = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<stop])
                    values.append(Double(String(decoding: rest, as: UTF8.self)))
                    continue
                }
                guard let delta = integer(UnsafeBufferPointer(rebasing: bytes[start..<stop])) else {
                    values.append(nil)
                    continue
                }
                let (sum, overflow) = last[field].addingReportingOverflow(delta)
                guard !overflow else {
                    values.append(nil)
                    continue
                }
                last[field] = sum
                values.append(Double(sum) / (field - 1 < divisors.count ? divisors[field - 1] : 1e3))
            }
            if let known { previous[known] = last } else { others[tag] = last }
            if let input = input(tag: tag, values) { inputs.append(input) }
        }
        return inputs
    }

    /// The index of a known tag in `tags`.
    private static func tagIndex(_ tag: UnsafeBufferPointer<UInt8>) -> Int? {
        switch tag.count {
        case 1:
            switch tag[0] {
            case UInt8(ascii: "F"): return 0
            case UInt8(ascii: "P"): return 1
            case UInt8(ascii: "B"): return 2
            case UInt8(ascii: "T"): return 3
            default: return nil
            }
        case 2:
            switch (tag[0], tag[1]) {
            case (UInt8(ascii: "P"), UInt8(ascii: "A")): return 4
            case (UInt8(ascii: "R"), UInt8(ascii: "E")): return 5
            case (UInt8(ascii: "T"), UInt8(ascii: "P")): return 6
            case (UInt8(ascii: "L"), UInt8(ascii: "P")): return 7
            case (UInt8(ascii: "B"), UInt8(ascii: "L")): return 8
            default: return nil
            }
        default: return nil
        }
    }

    /// A decimal integer as `Int64(_:)` reads one: an optional sign, then one or more digits,
    /// nothing else, within Int64's range.
    static func integer(_ field: UnsafeBufferPointer<UInt8>) -> Int64? {
        var p = 0
        var negative = false
        if let first = field.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            p = 1
        }
        guard p < field.count else { return nil }
        var value: Int64 = 0
        while p < field.count {
            let digit = field[p] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) =
                negative
                ? times.subtractingReportingOverflow(Int64(digit))
                : times.addingReportingOverflow(Int64(digit))
            guard !o1, !o2 else { return nil }
            value = next
            p += 1
        }
        return value
    }
}
