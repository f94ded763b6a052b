/// A BMP280 at register level, for tests and the simulated board: it serves the chip id, the
/// calibration, the status and data registers computed from a pressure and temperature you set,
/// obeys soft reset, and can be told to misbehave in each way a real one does.
public final class SimulatedBMP280: I2CBus {
    public enum Fault: Equatable {
        case wrongChipID(UInt8)
        /// The next `n` transfers fail with EIO.
        case failTransfers(Int)
        case stuckMeasuring
        case skippedValue
        case outOfRange
    }

    public var pascals: Double
    public var celsius: Double
    public var calibration: BMP280Calibration
    public var chipID: UInt8 = 0x58
    public private(set) var controlMeasurement: UInt8 = 0
    public private(set) var configuration: UInt8 = 0
    public private(set) var resets = 0
    private var faults: [Fault] = []
    private var failuresLeft = 0
    private var imUpdateReads = 0

    public init(
        pascals: Double = 101_325, celsius: Double = 20, calibration: BMP280Calibration = .datasheetExample
    ) {
        self.pascals = pascals
        self.celsius = celsius
        self.calibration = calibration
    }

    public func inject(_ fault: Fault) {
        if case .failTransfers(let n) = fault {
            failuresLeft += n
        } else {
            faults.append(fault)
        }
    }

    public func clearFaults() {
        faults.removeAll()
        failuresLeft = 0
    }

    public func readRegisters(_ start: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        try maybeFail("read 0x\(String(start, radix: 16))")
        var map: [UInt8: UInt8] = [:]
        for (i, byte) in calibration.registers.enumerated() { map[0x88 + UInt8(i)] = byte }
        let id = faults.compactMap { if case .wrongChipID(let id) = $0 { id } else { nil } }.first ?? chipID
        map[0xD0] = id
        var status: UInt8 = 0
        if imUpdateReads > 0 {
            status |= 0x01
            imUpdateReads -= 1
        }
        if faults.contains(.stuckMeasuring) { status |= 0x08 }
        map[0xF3] = status
        map[0xF4] = controlMeasurement
        map[0xF5] = configuration
        let (adcP, adcT) = adcValues()
        map[0xF7] = UInt8(adcP >> 12 & 0xFF)
        map[0xF8] = UInt8(adcP >> 4 & 0xFF)
        map[0xF9] = UInt8((adcP & 0xF) << 4)
        map[0xFA] = UInt8(adcT >> 12 & 0xFF)
        map[0xFB] = UInt8(adcT >> 4 & 0xFF)
        map[0xFC] = UInt8((adcT & 0xF) << 4)
        return (0..<count).map { map[start &+ UInt8($0)] ?? 0 }
    }

    public func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        try maybeFail("write 0x\(String(register, radix: 16))")
        switch register {
        case 0xE0 where value == 0xB6:
            resets += 1
            controlMeasurement = 0
            configuration = 0
            imUpdateReads = 2
        case 0xF4: controlMeasurement = value
        case 0xF5: configuration = value
        default: break
        }
    }

    private func maybeFail(_ operation: String) throws(I2CError) {
        if failuresLeft > 0 {
            failuresLeft -= 1
            throw I2CError(operation, errno: .ioError)
        }
    }

    /// The raw values whose compensation gives the set temperature and pressure (the formulas are
    /// monotonic, so a binary search inverts them exactly to the ADC's resolution).
    func adcValues() -> (Int32, Int32) {
        if faults.contains(.skippedValue) || controlMeasurement & 0x03 == 0 { return (0x80000, 0x80000) }
        let targetCelsius = faults.contains(.outOfRange) ? 150.0 : celsius
        var low: Int32 = 0
        var high: Int32 = (1 << 20) - 1
        while low < high {
            let mid = (low + high) / 2
            if Double(calibration.temperature(adc: mid).centiCelsius) / 100 < targetCelsius {
                low = mid + 1
            } else {
                high = mid
            }
        }
        let adcT = low
        let tFine = calibration.temperature(adc: adcT).tFine
        low = 0
        high = (1 << 20) - 1
        // Pressure falls as the ADC value rises.
        while low < high {
            let mid = (low + high) / 2
            if let p = calibration.pressure(adc: mid, tFine: tFine), Double(p) / 256 > pascals {
                low = mid + 1
            } else {
                high = mid
            }
        }
        return (low, adcT)
    }
}
