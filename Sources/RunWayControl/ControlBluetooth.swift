import RunWayCore

/// Whether runwayd's sensor service has a Bluetooth radio to use, and if not why: `status`'s
/// `bluetooth` object (`{"state": "ready", "message": null}`), beside `sensors` (and, when there
/// is no sensor service, why not). The checklist
/// gives its message as the reason a paired sensor is not connected when the adapter or BlueZ,
/// not the sensor, is the problem. States are added, never renamed.
public struct ControlBluetooth: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        case ready
        /// BlueZ is running, its adapter is not powered.
        case poweredOff = "powered_off"
        /// BlueZ is running with no adapter (none plugged in, or rfkill).
        case noAdapter = "no_adapter"
        /// No org.bluez on the system bus.
        case notRunning = "not_running"
        /// The bus's policy refuses runwayd (its user is not in the group bluetooth).
        case permissionDenied = "permission_denied"
        /// Any other cause (the system bus not reachable, bluetoothd not answering): see `message`.
        case unavailable
        /// No sensor service (status's `sensors` is null), and why: `bluetooth.enabled` is false,
        /// the simulated board (no radio; its scenario's body samples stand in), or a runwayd
        /// built without a radio.
        case disabled
        case notOnThisBoard = "not_on_this_board"
        case noRadio = "no_radio"
    }

    public var state: State
    /// What is wrong and what to do (the refusal's sentence); nil when ready.
    public var message: String?

    public init(state: State, message: String?) {
        self.state = state
        self.message = message
    }

    public var json: JSONValue {
        .object([("state", .string(state.rawValue)), ("message", message.map { .string($0) } ?? .null)])
    }

    /// The object runwayd sent; nil when it is not one, or its state is one this version does
    /// not know (read as no word on Bluetooth).
    public init?(json: JSONValue?) {
        guard let json, case .object = json, let word = json["state"]?.stringValue,
            let state = State(rawValue: word)
        else { return nil }
        self.init(state: state, message: json["message"]?.stringValue)
    }
}
