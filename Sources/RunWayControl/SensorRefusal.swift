/// Why runwayd did not carry out a `sensors-*` request: one case per cause, each sentence saying
/// what to do (`Tests/Fixtures/control/reply-refused-sensors-*`). On the wire it is the
/// `"error"` sentence of a refusal; `init?(message:)` reads a sentence back into its case.
public enum SensorRefusal: Sendable, Equatable, CustomStringConvertible {
    /// `bluetooth.enabled` is false: the sensor service is not running.
    case bluetoothDisabled
    /// The simulated board has no radio (its scenario's body samples stand in).
    case notOnThisBoard
    /// This build of runwayd has no Bluetooth radio wired in.
    case noRadio
    /// No org.bluez on the system bus.
    case blueZNotRunning
    /// The system bus itself cannot be reached.
    case busUnavailable
    case noAdapter
    case adapterOff
    /// D-Bus refused runwayd (its user is not allowed to talk to org.bluez).
    case permissionDenied
    /// A scan is running: one at a time.
    case busyScanning
    /// A pairing is in hand: one at a time.
    case busyPairing
    /// Neither an address nor a name that runwayd knows (the text as given).
    case unknownSensor(String)
    /// A name several devices share (the name as given).
    case ambiguousName(String)
    /// The device offers no heart-rate nor running speed and cadence service (its label).
    case notASensor(String)
    /// The sensor refused the bond (its label; BlueZ's words are in runwayd's log).
    case pairingRefused(String)
    /// No answer from BlueZ or the sensor within the pairing's time (its label).
    case pairingTimedOut(String)
    /// The paired sensors could not be written (the file's path; the errno is in the log): the
    /// pairing or forgetting was not made, the old list holds.
    case notStored(String)
    /// Any other failure of the radio, in BlueZ's words.
    case radioFailed(String)
    /// BlueZ is already pairing with the device (its label): another request, or bluetoothctl.
    case alreadyPairing(String)
    /// The paired sensors' file could not be read at start (the file's path): runwayd will not
    /// write over a list it could not read.
    case storeUnreadable(String)

    private static let fixed: [(SensorRefusal, String)] = [
        (.bluetoothDisabled, "Bluetooth is off in runwayd's configuration (bluetooth.enabled is false)"),
        (.notOnThisBoard, "the simulated board has no Bluetooth sensors (runwayd --board real has)"),
        (.noRadio, "this runwayd was built without a Bluetooth radio"),
        (
            .blueZNotRunning,
            "BlueZ is not running (no org.bluez on the system bus): systemctl start bluetooth"
        ),
        (.busUnavailable, "the system D-Bus cannot be reached: is dbus running? (systemctl status dbus)"),
        (.noAdapter, "no Bluetooth adapter: plug in a dongle, or check rfkill and the Pi's dtoverlay"),
        (.adapterOff, "the Bluetooth adapter is off: bluetoothctl power on (or rfkill unblock bluetooth)"),
        (
            .permissionDenied,
            "BlueZ refused runwayd: its user must be in the group bluetooth (reinstall the package, or adduser runway bluetooth)"
        ),
        (.busyScanning, "a scan is running: try again when it ends"),
        (.busyPairing, "a pairing is in hand: try again when it ends"),
    ]

    /// The parameterised sentences: before and after the one value.
    private static let framed: [(String, String, @Sendable (String) -> SensorRefusal)] = [
        ("no sensor \"", "\" is known: run runway sensors scan near it first", { .unknownSensor($0) }),
        (
            "more than one sensor is called \"", "\": give its address (runway sensors scan lists them)",
            { .ambiguousName($0) }
        ),
        ("", " offers no heart-rate or running speed and cadence service", { .notASensor($0) }),
        (
            "pairing with ",
            " was refused: wake the sensor (wet the strap, or take a few steps) and try again",
            { .pairingRefused($0) }
        ),
        (
            "pairing with ", " did not finish in time: keep the sensor awake and near, and try again",
            { .pairingTimedOut($0) }
        ),
        (
            "the paired sensors could not be stored in ", "; nothing was changed (runwayd's log says why)",
            { .notStored($0) }
        ),
        ("the Bluetooth radio failed: ", "", { .radioFailed($0) }),
        (
            "the paired sensors in ",
            " could not be read, and runwayd will not write over them: fix the file (its owner and permissions) and restart runwayd",
            { .storeUnreadable($0) }
        ),
        (
            "", " is already pairing (bluetoothctl, or another request): wait for it to end, then try again",
            { .alreadyPairing($0) }
        ),
    ]

    public var description: String {
        if let sentence = Self.fixed.first(where: { $0.0 == self })?.1 { return sentence }
        let (index, value): (Int, String) =
            switch self {
            case .unknownSensor(let v): (0, v)
            case .ambiguousName(let v): (1, v)
            case .notASensor(let v): (2, v)
            case .pairingRefused(let v): (3, v)
            case .pairingTimedOut(let v): (4, v)
            case .notStored(let v): (5, v)
            case .radioFailed(let v): (6, v)
            case .storeUnreadable(let v): (7, v)
            case .alreadyPairing(let v): (8, v)
            default: (6, "?")
            }
        return Self.framed[index].0 + value + Self.framed[index].1
    }

    /// The case a sentence stands for; nil when it is none of them.
    public init?(message: String) {
        if let known = Self.fixed.first(where: { $0.1 == message }) {
            self = known.0
            return
        }
        // The longest frame first: "pairing with X was refused" and "… did not finish" share a
        // prefix, and the radio's catch-all has no suffix.
        for (prefix, suffix, make) in Self.framed.sorted(by: {
            $0.0.count + $0.1.count > $1.0.count + $1.1.count
        })
        where message.hasPrefix(prefix) && message.hasSuffix(suffix)
            && message.count > prefix.count + suffix.count
        {
            self = make(String(message.dropFirst(prefix.count).dropLast(suffix.count)))
            return
        }
        return nil
    }
}
