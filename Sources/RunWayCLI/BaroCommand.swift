import Foundation
import RunWayCore
import RunWayHardware

/// `runway baro [--bus N] [--address 0x76] [--count N] [--json | --csv] [--simulated]`: the
/// barometer alone, for a maintainer wiring a board: chip id, temperature, pressure and the
/// altitude relative to the first reading. `--csv` writes the pressure file `runway fly
/// --pressure` reads (`time,pressure_pa`, UTC times from the board's clock).
public enum BaroCommand {
    public static func run(
        bus: Int, address: UInt8, count: Int?, json: Bool, csv: Bool = false, simulated: Bool,
        console: Console
    ) throws(CLIError) -> Int32 {
        let device: any I2CBus
        if simulated {
            device = SimulatedBMP280(pascals: 101_325, celsius: 21)
        } else {
            do {
                device = try LinuxI2CBus(bus: bus, address: address)
            } catch {
                throw CLIError(error.description)
            }
        }
        let bmp = BMP280(bus: device, sleep: { Thread.sleep(forTimeInterval: $0) })
        do {
            try bmp.start()
        } catch {
            throw CLIError("barometer at 0x\(String(address, radix: 16)): \(error)")
        }
        let id = "0x\(String(bmp.chipID ?? 0, radix: 16))"
        if csv {
            console.out("time,pressure_pa")
        } else if !json {
            console.out("chip id \(id) (\(bmp.chipID == 0x60 ? "BME280" : "BMP280"))")
        }
        var reference: Double?
        var n = 0
        while count.map({ n < $0 }) ?? true {
            if n > 0 { Thread.sleep(forTimeInterval: 0.5) }
            n += 1
            do {
                let reading = try bmp.read()
                let zero = reference ?? reading.pascals
                reference = zero
                let altitude = BarometricFormula.altitude(pressure: reading.pascals, reference: zero)
                let now = UTCTime.format((Date().timeIntervalSince1970 * 10).rounded(.down) / 10)
                if csv {
                    console.out("\(now),\(String(format: "%.2f", reading.pascals))")
                } else if json {
                    console.out(
                        JSONValue.object([
                            ("chip_id", .string(id)), ("time", .string(now)),
                            ("temperature_c", .number(reading.celsius, places: 2)),
                            ("pressure_pa", .number(reading.pascals, places: 2)),
                            ("relative_altitude_m", .number(altitude, places: 2)),
                        ]).rendered())
                } else {
                    console.out(
                        "\(String(format: "%.2f", reading.celsius)) °C  \(String(format: "%.2f", reading.pascals)) Pa  "
                            + "\(String(format: "%+.2f", altitude)) m")
                }
            } catch {
                console.err("runway: barometer: \(error)")
            }
        }
        return 0
    }
}
