import CI2C
import Foundation
import RunWayCore
import RunWaySystem

/// One device on a Linux I2C bus (`/dev/i2c-N`), through libi2c's SMBus calls.
public final class LinuxI2CBus: I2CBus {
    public let path: String
    public let address: UInt8
    private let fd: Int32

    /// Why a bus could not be opened: the errno, the device, and words a runner wiring a board
    /// can act on.
    public struct OpenError: Error, Sendable, Equatable, CustomStringConvertible {
        public var errno: Errno
        public var path: String
        public var address: UInt8

        public init(errno: Errno, path: String, address: UInt8) {
            self.errno = errno
            self.path = path
            self.address = address
        }

        public var description: String {
            switch errno {
            case .noSuchFile:
                "\(path): no such device — is dtparam=i2c_arm=on set in config.txt?"
            case .permissionDenied, .notPermitted:
                "\(path): permission denied — add the user to the i2c group (sudo adduser $USER i2c)"
            case Errno(rawValue: EBUSY):
                "\(path): address 0x\(String(address, radix: 16)) is claimed by a kernel driver (bmp280 overlay?)"
            default:
                "\(path): \(errno)"
            }
        }
    }

    public init(bus: Int, address: UInt8) throws(OpenError) {
        path = "/dev/i2c-\(bus)"
        self.address = address
        let result = rw_i2c_open(path, Int32(address))
        guard result >= 0 else {
            throw OpenError(errno: Errno(rawValue: -result), path: path, address: address)
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
            // A short read is the device's fault, not the kernel's: EIO.
            throw I2CError(
                "read 0x\(String(start, radix: 16)) from \(path)", errno: Errno(rawValue: n < 0 ? -n : EIO))
        }
        return Array(buffer.prefix(count))
    }

    public func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        let n = rw_i2c_write_byte(fd, register, value)
        guard n == 0 else {
            throw I2CError("write 0x\(String(register, radix: 16)) to \(path)", errno: Errno(rawValue: -n))
        }
    }
}
