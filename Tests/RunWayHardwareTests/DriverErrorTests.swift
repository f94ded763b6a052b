import Foundation
import RunWayCore
import RunWayHardware
import Testing

/// The drivers' errors carry the errno, so the daemon can turn each into its own status text and
/// buzzer pattern; their words tell a runner wiring a board what to do.
@Suite("Driver errors carry their errno")
struct DriverErrorTests {
    @Test func aMissingI2CBusSaysHowToEnableIt() {
        #expect {
            _ = try LinuxI2CBus(bus: 250, address: 0x76)
        } throws: { error in
            guard let error = error as? LinuxI2CBus.OpenError else { return false }
            return error.errno == .noSuchFile && error.path == "/dev/i2c-250"
                && "\(error)".contains("dtparam=i2c_arm=on")
        }
    }

    @Test func aMissingGPIOChipSaysSo() {
        #expect {
            _ = try GpiodChip("gpiochip250")
        } throws: { error in
            guard let error = error as? GpiodChip.OpenError else { return false }
            return error.errno == .noSuchFile && error.what == .chip
                && "\(error)".contains("no such GPIO chip")
        }
    }

    @Test func aBarometerThatCannotBeOpenedIsLostWithTheErrno() async {
        let failure = LinuxI2CBus.OpenError(errno: .permissionDenied, path: "/dev/i2c-1", address: 0x76)
        let source = BarometerSource(
            interval: 0.01, clock: { MonotonicInstant(seconds: 0) },
            open: { () throws(BarometerFailure) in
                throw .bus(failure)
            }
        ).start()
        var first: BarometerEvent?
        for await event in source.events {
            first = event
            source.stop()
        }
        #expect(first == .lost(.bus(failure)))
        #expect("\(failure)".contains("add the user to the i2c group"))
    }

    @Test func aFailedTransferCarriesItsErrno() {
        let chip = SimulatedBMP280(pascals: 100_000)
        chip.inject(.failTransfers(1))
        #expect {
            _ = try chip.readRegisters(0xD0, count: 1)
        } throws: { ($0 as? I2CError)?.errno == .ioError }
    }
}
