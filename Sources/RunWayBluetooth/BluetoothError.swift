/// Why a Bluetooth request did not happen: one case per cause, each with what to do.
public enum BluetoothError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system bus could not be reached (errno from sd-bus).
    case busUnavailable(errno: Int32)
    /// org.bluez is not on the bus.
    case blueZNotRunning
    case noAdapter
    case adapterOff
    /// D-Bus refused us (org.freedesktop.DBus.Error.AccessDenied): not in the group bluetooth.
    case permissionDenied(String)
    /// No device with this address (or name) is known to BlueZ.
    case unknownDevice(String)
    /// The device offers neither a heart-rate nor a running speed and cadence service.
    case notASensor(BluetoothAddress)
    /// org.bluez.Error.AuthenticationFailed / Rejected / Canceled…: the sensor said no.
    case pairingRefused(name: String, message: String)
    /// org.bluez.Error.InProgress on Pair: the device is already pairing (another runwayd
    /// request's, or another program's such as bluetoothctl).
    case alreadyPairing(name: String)
    case connectFailed(name: String, message: String)
    /// bluetoothd did not answer in time.
    case timedOut(String)
    /// A payload that is not what the specification allows.
    case malformed(characteristic: UInt16, reason: String)
    /// Any other D-Bus error, by its name and message.
    case dbus(name: String, message: String)

    public var description: String {
        switch self {
        case .busUnavailable(let errno):
            "the system D-Bus cannot be reached (errno \(errno)): is dbus running?"
        case .blueZNotRunning:
            "BlueZ is not running (no org.bluez on the system bus): systemctl start bluetooth"
        case .noAdapter: "no Bluetooth adapter: plug in a dongle, or check rfkill and the Pi's dtoverlay"
        case .adapterOff: "the Bluetooth adapter is off: bluetoothctl power on (or rfkill unblock bluetooth)"
        case .permissionDenied(let message):
            "BlueZ refused the request (\(message)): runwayd's user must be in the group bluetooth"
        case .unknownDevice(let which):
            "no sensor \(which) is known: run runway sensors scan near it first"
        case .notASensor(let address):
            "\(address) offers no heart-rate or running speed and cadence service"
        case .pairingRefused(let name, let message):
            "pairing with \(name) was refused (\(message)): wake the sensor (wet the strap) and try again"
        case .alreadyPairing(let name):
            "\(name) is already pairing (bluetoothctl, or another request): wait for it to end, then try again"
        case .connectFailed(let name, let message):
            "cannot connect to \(name) (\(message)): is it awake and in range?"
        case .timedOut(let what): "bluetoothd did not answer in time (\(what))"
        case .malformed(let characteristic, let reason):
            "a malformed payload from characteristic 0x\(String(characteristic, radix: 16, uppercase: true)): \(reason)"
        case .dbus(let name, let message): "D-Bus error \(name): \(message)"
        }
    }
}
