import Glibc
import RunWaySystem
import RunWayTestSupport

@testable import RunWayBluetooth

/// The shared harness (RunWayTestSupport's `MockBlueZ`: a private bus and the mock bluetoothd)
/// with typed calls for the radio's own tests: D-Bus values in and out, through a connection of
/// the test's own (not the radio's), opened per call.
extension MockBlueZ {
    /// A connection of the test's own to the mock's bus.
    var client: BusConnection {
        get throws { try BusConnection(address: address) }
    }

    /// Calls one of the mock's org.bluez.Mock methods on /.
    @discardableResult
    func mock(_ member: String, _ arguments: [DBusArgument] = []) throws -> [DBusValue] {
        try client.call("org.bluez", "/", "org.bluez.Mock", member, arguments, timeout: 30)
    }

    /// A property of one of the mock's objects, as BlueZ's clients read it.
    func property(_ path: String, _ interface: String, _ name: String) throws -> DBusValue? {
        try client.call(
            "org.bluez", path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)]
        ).first?.unwrapped
    }

    /// Lifts the refusal (`init(refusing:)`): the bus reloads a policy that allows everything.
    func allow() throws {
        try Self.config(socket: directory + "/bus", refusing: false).write(
            toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        _ = try client.call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReloadConfig")
    }

    func addSensor(_ address: String, _ name: String, _ kind: SensorKind, rssi: Int16) throws {
        try addSensor(address, name, kind: kind.rawValue, rssi: rssi)
    }
}

/// Polls the radio as runwayd's sensor thread does and gathers its events until `done` says so
/// or `seconds` pass.
func events(
    from radio: BlueZRadio, within seconds: Double = 5, until done: ([SensorEvent]) -> Bool
) throws -> [SensorEvent] {
    var all: [SensorEvent] = []
    let end = MonotonicClock.seconds + seconds
    while !done(all) {
        let left = end - MonotonicClock.seconds
        guard left > 0 else { break }
        let wait = min(left, radio.timeout() ?? left)
        _ = Poll.readable(nil, radio.descriptor, timeout: Int32(wait * 1000))
        all += try radio.process()
    }
    return all
}

/// Whatever the radio reports within `seconds` (for checking that nothing more comes).
func quietEvents(from radio: BlueZRadio, for seconds: Double = 0.3) throws -> [SensorEvent] {
    try events(from: radio, within: seconds) { _ in false }
}
