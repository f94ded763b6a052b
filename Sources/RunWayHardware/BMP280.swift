/// The BMP280's factory calibration (registers 0x88–0x9F, little-endian; T1 and P1 unsigned).
public struct BMP280Calibration: Sendable, Equatable {
    public var t1: UInt16, t2: Int16, t3: Int16
    public var p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16, p6: Int16, p7: Int16, p8: Int16,
        p9: Int16

    /// The datasheet's worked example (section 3.12, "compensation formulas").
    public static let datasheetExample = BMP280Calibration(
        t1: 27504, t2: 26435, t3: -1000, p1: 36477, p2: -10685, p3: 3024, p4: 2855, p5: 140, p6: -7,
        p7: 15500,
        p8: -14600, p9: 6000)

    public init(
        t1: UInt16, t2: Int16, t3: Int16, p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16, p6: Int16,
        p7: Int16, p8: Int16, p9: Int16
    ) {
        (self.t1, self.t2, self.t3) = (t1, t2, t3)
        (self.p1, self.p2, self.p3, self.p4, self.p5) = (p1, p2, p3, p4, p5)
        (self.p6, self.p7, self.p8, self.p9) = (p6, p7, p8, p9)
    }

    /// From the 24 bytes at 0x88.
    public init(registers b: [UInt8]) {
        func u(_ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
        func s(_ i: Int) -> Int16 { Int16(bitPattern: u(i)) }
        self.init(
            t1: u(0), t2: s(2), t3: s(4), p1: u(6), p2: s(8), p3: s(10), p4: s(12), p5: s(14), p6: s(16),
            p7: s(18), p8: s(20), p9: s(22))
    }

    /// The 24 register bytes (the simulator serves these).
    public var registers: [UInt8] {
        let words: [UInt16] = [
            t1, UInt16(bitPattern: t2), UInt16(bitPattern: t3), p1, UInt16(bitPattern: p2),
            UInt16(bitPattern: p3), UInt16(bitPattern: p4), UInt16(bitPattern: p5), UInt16(bitPattern: p6),
            UInt16(bitPattern: p7), UInt16(bitPattern: p8), UInt16(bitPattern: p9),
        ]
        return words.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// Temperature in 0.01 °C and `t_fine`, with the datasheet's 32-bit integer formula.
    public func temperature(adc: Int32) -> (centiCelsius: Int32, tFine: Int32) {
        let t1 = Int32(self.t1)
        let var1 = (((adc >> 3) - (t1 << 1)) * Int32(t2)) >> 11
        let d = (adc >> 4) - t1
        let var2 = (((d * d) >> 12) * Int32(t3)) >> 14
        let tFine = var1 + var2
        return ((tFine * 5 + 128) >> 8, tFine)
    }

    /// Pressure in Pa as Q24.8 with the datasheet's 64-bit integer formula; `nil` where the
    /// datasheet returns 0 to avoid dividing by zero (`var1 == 0`).
    public func pressure(adc: Int32, tFine: Int32) -> UInt32? {
        var var1 = Int64(tFine) - 128_000
        var var2 = var1 * var1 * Int64(p6)
        var2 += (var1 * Int64(p5)) << 17
        var2 += Int64(p4) << 35
        var1 = ((var1 * var1 * Int64(p3)) >> 8) + ((var1 * Int64(p2)) << 12)
        var1 = (((Int64(1) << 47) + var1) * Int64(p1)) >> 33
        guard var1 != 0 else { return nil }
        var p = 1_048_576 - Int64(adc)
        p = (((p << 31) - var2) &* 3125) / var1
        var1 = (Int64(p9) * (p >> 13) * (p >> 13)) >> 25
        var2 = (Int64(p8) * p) >> 19
        p = ((p + var1 + var2) >> 8) + (Int64(p7) << 4)
        return UInt32(truncatingIfNeeded: p)
    }
}

/// One compensated reading.
public struct BarometerReading: Sendable, Equatable {
    public var celsius: Double
    public var pascals: Double
    public var rawTemperature: Int32
    public var rawPressure: Int32
}

/// Why the barometer could not give a reading. Each says what it means for the runner.
public enum BMP280Error: Error, Sendable, Equatable, CustomStringConvertible {
    case wrongChip(id: UInt8)
    case bus(I2CError)
    case stuckMeasuring
    case skippedMeasurement
    case resetTimedOut
    case divisionGuard
    case outOfRange(celsius: Double, pascals: Double)

    public var description: String {
        switch self {
        case .wrongChip(let id):
            "chip id 0x\(String(id, radix: 16)) is not a BMP280 (0x58, 0x56, 0x57) or BME280 (0x60)"
        case .bus(let error): "I2C: \(error)"
        case .stuckMeasuring: "the BMP280 has been measuring for too long (status bit stuck)"
        case .skippedMeasurement: "the BMP280 reported a skipped measurement (0x80000)"
        case .resetTimedOut: "the BMP280 did not finish copying its calibration after reset"
        case .divisionGuard: "the calibration makes the pressure formula divide by zero"
        case .outOfRange(let c, let p): "reading out of range: \(c) °C, \(p) Pa"
        }
    }
}

/// The BMP280 (and BME280) driver, register by register from the datasheet.
///
/// Setting: normal mode with the datasheet's "handheld device low-power" row — pressure ×16,
/// temperature ×2, IIR coefficient 4, standby 62.5 ms — about 9.5 readings a second at ~0.2 Pa of
/// noise. The "dynamic" row (×4/×1, IIR 16, 0.5 ms) answers faster than a runner climbs and costs
/// 8× the current; IIR 16 at a low rate would lag a hill by seconds. The engine smooths further.
public final class BMP280 {
    public static let chipIDs: Set<UInt8> = [0x58, 0x56, 0x57, 0x60]
    /// ctrl_meas: osrs_t ×2 (010), osrs_p ×16 (101), normal mode (11).
    public static let controlMeasurement: UInt8 = 0b010_101_11
    /// config: t_sb 62.5 ms (001), filter 4 (010), no 3-wire SPI.
    public static let configuration: UInt8 = 0b001_010_00

    let bus: any I2CBus
    let sleep: (Double) -> Void
    public private(set) var chipID: UInt8?
    public private(set) var calibration: BMP280Calibration?
    /// Transfers tried before a full re-initialisation, with doubling back-off from `backoff`.
    public var retries = 3
    public var backoff = 0.01

    /// - Parameter sleep: how to wait (seconds); tests pass a no-op.
    public init(bus: any I2CBus, sleep: @escaping (Double) -> Void) {
        self.bus = bus
        self.sleep = sleep
    }

    /// Checks the chip, soft-resets it, reads the calibration and starts measuring.
    public func start() throws(BMP280Error) {
        let id = try transfer { () throws(I2CError) in try bus.readRegisters(0xD0, count: 1)[0] }
        guard Self.chipIDs.contains(id) else { throw .wrongChip(id: id) }
        chipID = id
        try transfer { () throws(I2CError) in try bus.writeRegister(0xE0, 0xB6) }
        sleep(0.002)
        var copied = false
        for _ in 0..<50 {
            let status = try transfer { () throws(I2CError) in try bus.readRegisters(0xF3, count: 1)[0] }
            if status & 0x01 == 0 {
                copied = true
                break
            }
            sleep(0.001)
        }
        guard copied else { throw .resetTimedOut }
        let bytes = try transfer { () throws(I2CError) in try bus.readRegisters(0x88, count: 24) }
        calibration = BMP280Calibration(registers: bytes)
        // config is written first: writes to it in normal mode may be ignored.
        try transfer { () throws(I2CError) in try bus.writeRegister(0xF5, Self.configuration) }
        try transfer { () throws(I2CError) in try bus.writeRegister(0xF4, Self.controlMeasurement) }
    }

    /// One reading. A failing transfer is retried with back-off; if that is not enough, or the
    /// chip reports nonsense, the driver re-initialises once and tries again before giving up.
    public func read() throws(BMP280Error) -> BarometerReading {
        do {
            return try readOnce()
        } catch {
            switch error {
            case .wrongChip, .divisionGuard: throw error
            default: break
            }
        }
        try start()
        return try readOnce()
    }

    func readOnce() throws(BMP280Error) -> BarometerReading {
        if calibration == nil { try start() }
        guard let calibration else { throw .resetTimedOut }
        var waited = 0
        while try transfer({ () throws(I2CError) in try bus.readRegisters(0xF3, count: 1)[0] }) & 0x08 != 0 {
            waited += 1
            if waited > 20 { throw .stuckMeasuring }
            sleep(0.005)
        }
        let b = try transfer { () throws(I2CError) in try bus.readRegisters(0xF7, count: 6) }
        let adcP = Int32(b[0]) << 12 | Int32(b[1]) << 4 | Int32(b[2]) >> 4
        let adcT = Int32(b[3]) << 12 | Int32(b[4]) << 4 | Int32(b[5]) >> 4
        if adcP == 0x80000 || adcT == 0x80000 { throw .skippedMeasurement }
        let (centi, tFine) = calibration.temperature(adc: adcT)
        guard let q248 = calibration.pressure(adc: adcP, tFine: tFine) else { throw .divisionGuard }
        let celsius = Double(centi) / 100
        let pascals = Double(q248) / 256
        guard (-40...85).contains(celsius), (30_000...110_000).contains(pascals) else {
            throw .outOfRange(celsius: celsius, pascals: pascals)
        }
        return BarometerReading(celsius: celsius, pascals: pascals, rawTemperature: adcT, rawPressure: adcP)
    }

    /// Runs one bus transfer, retrying with doubling back-off.
    func transfer<T>(_ body: () throws(I2CError) -> T) throws(BMP280Error) -> T {
        var delay = backoff
        var attempt = 0
        while true {
            do {
                return try body()
            } catch {
                attempt += 1
                if attempt >= retries { throw .bus(error) }
                sleep(delay)
                delay *= 2
            }
        }
    }
}
