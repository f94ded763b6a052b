/// The FIT file container, from the FIT protocol's published description: a 14-byte header
/// with its own CRC, definition messages that say how each local message type is laid out, data
/// messages in that layout (little-endian), and the file's CRC-16 at the end. Knows nothing of
/// activities: `FITEncoder` says what to write.
struct FITWriter {
    /// FIT's base types: the byte written in a field definition, with its size and its
    /// "invalid" value (what a field without a value holds).
    enum BaseType: UInt8 {
        case enumeration = 0x00
        case uint8 = 0x02
        case uint16 = 0x84
        case sint32 = 0x85
        case uint32 = 0x86
        case string = 0x07
        case uint32z = 0x8C

        var size: Int {
            switch self {
            case .enumeration, .uint8, .string: 1
            case .uint16: 2
            case .sint32, .uint32, .uint32z: 4
            }
        }

        var invalid: UInt64 {
            switch self {
            case .enumeration, .uint8: 0xFF
            case .uint16: 0xFFFF
            case .sint32: 0x7FFF_FFFF
            case .uint32: 0xFFFF_FFFF
            case .string, .uint32z: 0
            }
        }

        var range: ClosedRange<Int64> {
            switch self {
            case .enumeration, .uint8: 0...0xFE
            case .uint16: 0...0xFFFE
            case .sint32: -0x7FFF_FFFF...0x7FFF_FFFE
            case .uint32: 0...0xFFFF_FFFE
            case .uint32z: 1...0xFFFF_FFFF
            case .string: 0...0
            }
        }
    }

    struct Field {
        var number: UInt8
        var type: BaseType
        /// Bytes; a string's includes its terminating NUL.
        var size: Int

        init(_ number: UInt8, _ type: BaseType, size: Int? = nil) {
            self.number = number
            self.type = type
            self.size = size ?? type.size
        }
    }

    /// One message layout, bound to a local message type (0–15).
    struct Definition {
        var local: UInt8
        var global: UInt16
        var fields: [Field]
    }

    /// A field's value: a number in the field's units after scale and offset, text, an array of
    /// numbers (as many as the field's size holds; a nil or missing element is invalid), or nothing.
    enum Value {
        case number(Int64)
        case text(String)
        case numbers([Int64?])
        case none
    }

    /// Seconds from the Unix epoch to FIT's, 1989-12-31T00:00:00Z.
    static let epochOffset = 631_065_600.0
    static let profileVersion: UInt16 = 2132

    private(set) var data: [UInt8] = []
    private var defined: [UInt8: UInt16] = [:]

    init(reservingCapacity bytes: Int = 0) {
        data.reserveCapacity(bytes + 16)
    }

    /// FIT's `date_time`: whole seconds since FIT's epoch.
    static func timestamp(_ unixTime: Double) -> Value {
        .number(Int64((unixTime - epochOffset).rounded(.down)))
    }

    /// Degrees as FIT's semicircles (2³¹ per 180°).
    static func semicircles(_ degrees: Double) -> Value {
        .number(Int64((degrees * 2_147_483_648 / 180).rounded()))
    }

    /// `value` × `scale` + `offset`, rounded; nothing for nil or a non-finite value.
    static func scaled(_ value: Double?, _ scale: Double, offset: Double = 0) -> Value {
        guard let value, value.isFinite else { return .none }
        return .number(Int64(((value + offset) * scale).rounded()))
    }

    /// Writes `definition`'s definition message the first time it is used (and again when its
    /// local type was bound to another message), then one data message of `values`, in order.
    mutating func write(_ definition: Definition, _ values: [Value]) {
        precondition(values.count == definition.fields.count)
        if defined[definition.local] != definition.global {
            data.append(0x40 | definition.local)
            data.append(0)  // reserved
            data.append(0)  // little-endian
            append(UInt64(definition.global), bytes: 2)
            data.append(UInt8(definition.fields.count))
            for field in definition.fields {
                data.append(field.number)
                data.append(UInt8(field.size))
                data.append(field.type.rawValue)
            }
            defined[definition.local] = definition.global
        }
        data.append(definition.local)
        for (field, value) in zip(definition.fields, values) {
            switch value {
            case .text(let text):
                var bytes = Array(text.utf8.prefix(field.size - 1))
                bytes += [UInt8](repeating: 0, count: field.size - bytes.count)
                data += bytes
            case .number(let n) where field.type.range.contains(n):
                append(UInt64(bitPattern: n), bytes: field.size)
            case .numbers(let elements):
                for i in 0..<field.size / field.type.size {
                    if i < elements.count, let n = elements[i], field.type.range.contains(n) {
                        append(UInt64(bitPattern: n), bytes: field.type.size)
                    } else {
                        append(field.type.invalid, bytes: field.type.size)
                    }
                }
            case .number, .none:
                // Every element invalid (one for a plain field).
                for _ in 0..<max(1, field.size / field.type.size) {
                    append(field.type.invalid, bytes: field.type.size)
                }
            }
        }
    }

    /// The whole file: header (with its CRC), the messages, the file's CRC.
    func file() -> [UInt8] {
        var header: [UInt8] = [14, 0x20]
        header += Self.littleEndian(UInt64(Self.profileVersion), bytes: 2)
        header += Self.littleEndian(UInt64(data.count), bytes: 4)
        header += Array(".FIT".utf8)
        var crc = FITCRC()
        crc.add(header)
        header += Self.littleEndian(UInt64(crc.value), bytes: 2)
        var file = header
        file.reserveCapacity(header.count + data.count + 2)
        file += data
        var whole = FITCRC()
        whole.add(file)
        file += Self.littleEndian(UInt64(whole.value), bytes: 2)
        return file
    }

    private mutating func append(_ value: UInt64, bytes: Int) {
        for i in 0..<bytes { data.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    static func littleEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}

/// FIT's CRC-16 (the reflected 0xA001 polynomial, initial value 0), four bits at a time as the
/// protocol describes it.
struct FITCRC {
    private static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]
    private(set) var value: UInt16 = 0

    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes {
            for nibble in [byte & 0x0F, byte >> 4] {
                let low = Self.table[Int(value & 0x0F)]
                value = (value >> 4) & 0x0FFF
                value = value ^ low ^ Self.table[Int(nibble)]
            }
        }
    }
}
