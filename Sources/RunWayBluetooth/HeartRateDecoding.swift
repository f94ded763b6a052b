extension HeartRateMeasurement {
    /// The Heart Rate Measurement characteristic's UUID (16-bit).
    public static let characteristic: UInt16 = 0x2A37

    /// Decodes a Heart Rate Measurement (0x2A37) as the Heart Rate Service specification
    /// (HRS 1.0, with the field layout of the GATT Specification Supplement) defines it:
    ///
    /// | byte(s) | field | present when |
    /// | --- | --- | --- |
    /// | 0 | flags | always |
    /// | 1 or 1–2 | Heart Rate Value, bpm: UINT8, or UINT16 little-endian | always; bit 0 picks the width |
    /// | next 2 | Energy Expended, kJ (UINT16) | bit 3 |
    /// | rest | RR-Interval, UINT16 each, 1/1024 s, oldest first | bit 4 (one or more) |
    ///
    /// Flags bits 1–2 are the Sensor Contact Status: bit 2 clear, the strap does not support
    /// contact detection (bit 1 means nothing then); bit 2 set, bit 1 says whether skin contact is
    /// detected. Bits 5–7 are reserved for future use and ignored.
    ///
    /// Strict where the specification is: a payload cut short of a field its flags announce, an
    /// RR-Interval field that is not a whole number of UINT16s (an odd trailing byte), an RR flag
    /// with no interval after it, or bytes after the last announced field (no RR flag) throw
    /// `.malformed`. A value of 0 or 255 decodes as sent: whether it is a heart rate is
    /// `usableHeartRate`'s decision (nil outside 20–250 bpm, and without skin contact), so a strap
    /// without contact is missing, never 0.
    public static func decode(_ bytes: [UInt8]) throws(BluetoothError) -> HeartRateMeasurement {
        var reader = PayloadReader(bytes, characteristic: characteristic)
        let (flags, beats, contact) = try head(&reader)
        let energy = flags & 0x08 == 0 ? nil : Int(try reader.uint16("energy expended"))
        var intervals: [Double] = []
        if flags & 0x10 != 0 {
            guard reader.remaining >= 2, reader.remaining % 2 == 0 else {
                throw .malformed(
                    characteristic: characteristic,
                    reason: reader.remaining == 0
                        ? "the RR-interval flag is set but no interval follows"
                        : "the RR-interval field is \(reader.remaining) byte(s), not whole 16-bit intervals")
            }
            while reader.remaining > 0 { intervals.append(Double(try reader.uint16("RR-interval")) / 1024) }
        }
        try reader.end()
        return HeartRateMeasurement(
            beatsPerMinute: beats, contact: contact, energyExpended: energy, rrIntervals: intervals)
    }

    /// As the sensor thread reads a strap: `decode`, except that a payload whose flags and heart
    /// rate value are whole but whose later fields (energy expended, RR-intervals, bytes after
    /// them) are not keeps its heart rate and contact — those later fields are dropped, and the
    /// tail's fault comes back as `tail` to be counted as malformed. A payload cut short of the
    /// flags' mandatory value still throws `.malformed`: there is no heart rate in it.
    public static func decodeKeepingValue(_ bytes: [UInt8]) throws(BluetoothError) -> (
        HeartRateMeasurement, tail: BluetoothError?
    ) {
        do throws(BluetoothError) {
            return (try decode(bytes), nil)
        } catch {
            var reader = PayloadReader(bytes, characteristic: characteristic)
            let (_, beats, contact) = try head(&reader)
            let value = HeartRateMeasurement(
                beatsPerMinute: beats, contact: contact, energyExpended: nil, rrIntervals: [])
            return (value, error)
        }
    }

    /// The flags, the heart rate value (bit 0: UINT8 or UINT16) and the Sensor Contact Status
    /// (bits 1–2): what every payload has, read by both decoders alike.
    private static func head(_ reader: inout PayloadReader) throws(BluetoothError) -> (
        flags: UInt8, beats: Int, contact: Contact
    ) {
        let flags = try reader.uint8("flags")
        let beats =
            flags & 0x01 == 0
            ? Int(try reader.uint8("8-bit heart rate value"))
            : Int(try reader.uint16("16-bit heart rate value"))
        let contact: Contact =
            switch (flags >> 1) & 0x03 {
            case 0b10: .notDetected
            case 0b11: .detected
            default: .notSupported  // 0b00, and 0b01 (the specification's "not supported" too)
            }
        return (flags, beats, contact)
    }
}
