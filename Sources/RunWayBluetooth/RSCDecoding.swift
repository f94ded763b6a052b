extension RSCMeasurement {
    /// The RSC Measurement characteristic's UUID (16-bit).
    public static let characteristic: UInt16 = 0x2A53

    /// Decodes an RSC Measurement (0x2A53) as the Running Speed and Cadence Service specification
    /// (RSCS 1.0, with the field layout of the GATT Specification Supplement) defines it:
    ///
    /// | byte(s) | field | present when |
    /// | --- | --- | --- |
    /// | 0 | flags | always |
    /// | 1–2 | Instantaneous Speed, UINT16, 1/256 m/s | always |
    /// | 3 | Instantaneous Cadence, UINT8, 1/min | always |
    /// | next 2 | Instantaneous Stride Length, UINT16, 1/100 m | bit 0 |
    /// | next 4 | Total Distance, UINT32, 1/10 m | bit 1 |
    ///
    /// Flags bit 2 is the Walking or Running Status (1: running). Bits 3–7 are reserved and ignored.
    ///
    /// **Cadence is taken as sent, as steps per minute (both feet).** The supplement gives the
    /// field only the unit 1/minute (resolution 1), and RSCS describes it as the rate of foot
    /// falls, not of one foot's strides. Real pods agree: a user of an RSC-only cadence sensor
    /// (TrackMyIndoorWorkout issue 465) saw 160–180 live while running, as sent, and decoders of
    /// this characteristic (Codename One's RscMeasurement: "the profile transmits steps, so a
    /// runner at 90 strides per minute reports 180") take it as steps. The one-foot "strides per
    /// minute" (~80–95) belongs to FIT and TCX files ("rpm") and to watches' 1-foot display mode,
    /// not to this characteristic. So no factor of 2 is applied here; a pod that sent half values
    /// would show as an implausibly low cadence (under ~100 while `isRunning`), which the engine
    /// can judge, and is not guessed at here.
    ///
    /// Stride length is kept as sent: RSCS calls it the distance of one stride; with cadence in
    /// steps, speed ≈ cadence × stride length / 60 for pods that measure the step, and pods
    /// differ; the engine should prefer `speed` and `totalDistance` where GPS is lost.
    ///
    /// Strict where the specification is: a payload cut short of a field its flags announce, or
    /// bytes after the last announced field, throw `.malformed`.
    public static func decode(_ bytes: [UInt8]) throws(BluetoothError) -> RSCMeasurement {
        var reader = PayloadReader(bytes, characteristic: characteristic)
        let flags = try reader.uint8("flags")
        let speed = Double(try reader.uint16("instantaneous speed")) / 256
        let cadence = Double(try reader.uint8("instantaneous cadence"))
        let stride = flags & 0x01 == 0 ? nil : Double(try reader.uint16("stride length")) / 100
        let total = flags & 0x02 == 0 ? nil : Double(try reader.uint32("total distance")) / 10
        try reader.end()
        return RSCMeasurement(
            speed: speed, cadence: cadence, strideLength: stride, totalDistance: total,
            isRunning: flags & 0x04 != 0)
    }
}

/// Battery Level (0x2A19) of the Battery Service (0x180F): one UINT8, percent.
public enum BatteryLevel {
    public static let characteristic: UInt16 = 0x2A19

    /// The percentage 0–100; `.malformed` for an empty or longer payload, or a value past 100
    /// (the specification reserves 101–255).
    public static func decode(_ bytes: [UInt8]) throws(BluetoothError) -> Int {
        var reader = PayloadReader(bytes, characteristic: characteristic)
        let level = try reader.uint8("battery level")
        try reader.end()
        guard level <= 100 else {
            throw .malformed(characteristic: characteristic, reason: "battery level \(level)%, past 100")
        }
        return Int(level)
    }
}
