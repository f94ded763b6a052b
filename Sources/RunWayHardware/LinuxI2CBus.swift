import CI2C
import Foundation

/// One device on a Linux I2C bus (`/dev/i2c-N`), through libi2c's SMBus calls.
public final class LinuxI2CBus: I2CBus {
    public let path: String
    public let address: UInt8
    private let fd: Int32

    /// Why a bus could not be opened, in words a runner wiring a board can act on.
    public struct OpenError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(bus: Int, address: UInt8) throws(OpenError) {
        path = "/dev/i2c-\(bus)"
        self.address = address
        let result = rw_i2c_open(path, Int32(address))
        guard result >= 0 else {
            let code = -result
            switch code {
            case ENOENT:
                throw OpenError(
                    description: "\(path): no such device — is dtparam=i2c_arm=on set in config.txt?")
            case EACCES, EPERM:
                throw OpenError(
                    description:
                        "\(path): permission denied — add the user to the i2c group (sudo adduser $USER i2c)")
            case EBUSY:
                throw OpenError(
                    description:
                        "\(path): address 0x\(String(address, radix: 16)) is claimed by a kernel driver (bmp280 overlay?)"
                )
            default:
                throw OpenError(description: "\(path): \(String(cString: strerror(code)))")
            }
        }
        fd = result
    }

    deinit { rw_i2c_close(fd) }

    public func readRegisters(_ start: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: max(count, 1))
        let n = buffer.withUnsafeMutableBufferPointer {
            rw_i2c_read_block(fd, start, UInt8(count), $0.baseAddress)
        }
        guard n == count else {
            throw I2CError("read 0x\(String(start, radix: 16)) from \(path)", code: n < 0 ? -n : 0)
        }
        return Array(buffer.prefix(count))
    }

    public func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        let n = rw_i2c_write_byte(fd, register, value)
        guard n == 0 else { throw I2CError("write 0x\(String(register, radix: 16)) to \(path)", code: -n) }
    }
}
