import RunWayCore
import RunWaySystem

/// A failed I2C transfer: the operation and the errno behind it.
public struct I2CError: Error, Sendable, Equatable, CustomStringConvertible {
    public var operation: String
    public var errno: Errno

    public init(_ operation: String, errno: Errno) {
        self.operation = operation
        self.errno = errno
    }

    public var description: String { "\(operation) failed: \(errno) (errno \(errno.rawValue))" }
}

/// Register access to one device on an I2C bus: what the BMP280 driver needs, and all it
/// needs, so the same driver runs on `/dev/i2c-N` and on `SimulatedBMP280`.
public protocol I2CBus: AnyObject {
    func readRegisters(_ start: UInt8, count: Int) throws(I2CError) -> [UInt8]
    func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError)
}
