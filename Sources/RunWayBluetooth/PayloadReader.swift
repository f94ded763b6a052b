/// Little-endian fields read off the front of a GATT payload, as every Bluetooth characteristic
/// sends them. Running past the end throws `.malformed` naming the field that was cut short.
struct PayloadReader {
    let bytes: [UInt8]
    let characteristic: UInt16
    private(set) var offset = 0

    init(_ bytes: [UInt8], characteristic: UInt16) {
        self.bytes = bytes
        self.characteristic = characteristic
    }

    var remaining: Int { bytes.count - offset }

    mutating func uint8(_ field: String) throws(BluetoothError) -> UInt8 {
        try need(1, field)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16(_ field: String) throws(BluetoothError) -> UInt16 {
        try need(2, field)
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func uint32(_ field: String) throws(BluetoothError) -> UInt32 {
        try need(4, field)
        defer { offset += 4 }
        return (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// Throws when bytes are left over that the flags announced no field for.
    func end() throws(BluetoothError) {
        guard remaining == 0 else {
            throw .malformed(
                characteristic: characteristic,
                reason: "\(remaining) byte(s) after the last field the flags announce (\(bytes.count) in all)"
            )
        }
    }

    private func need(_ count: Int, _ field: String) throws(BluetoothError) {
        guard remaining >= count else {
            throw .malformed(
                characteristic: characteristic,
                reason: bytes.isEmpty
                    ? "an empty payload"
                    : "\(bytes.count) byte(s) end before the \(field) the flags announce")
        }
    }
}
