import Foundation
import RunWayCore
import RunWayHardware

/// A BMP280 at register level whose air pressure follows a hill in real time: up `height` metres
/// and back down every `period` seconds of the monotonic clock. `runwayd --simulate barometer`
/// puts it behind the real board's barometer service, so a machine without the chip (CI, a
/// laptop) flies the real driver, the real time base and a flight with altitude and gain.
final class HillBarometerBus: I2CBus {
    private let chip = SimulatedBMP280()
    private let start = MonotonicInstant.now
    let height: Double
    let period: Double

    init(height: Double = 12, period: Double = 40) {
        self.height = height
        self.period = period
    }

    /// The hill's altitude now, metres above its foot.
    func altitude(at instant: MonotonicInstant) -> Double {
        let phase = (instant.seconds - start.seconds) / period * 2 * Double.pi
        return height * (1 - cos(phase)) / 2
    }

    func readRegisters(_ first: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        // The international barometric formula, inverted: the pressure at that altitude.
        chip.pascals = 101_325 * pow(1 - altitude(at: .now) / 44_330, 5.255)
        return try chip.readRegisters(first, count: count)
    }

    func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        try chip.writeRegister(register, value)
    }
}
