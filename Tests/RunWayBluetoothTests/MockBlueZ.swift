import Foundation
import Glibc
import RunWaySystem

@testable import RunWayBluetooth

/// A private dbus-daemon (a temporary config, its own socket) and, on it when started,
/// python-dbusmock running `Tests/Fixtures/bluetooth/bluez_sensors.py`: BlueZ's object model with
/// sensors whose GATT objects, notifications and failures the test controls. Everything it
/// starts is ended in `stop()` (and deinit).
final class MockBlueZ {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/bluetooth/bluez_sensors.py").standardizedFileURL.path

    let directory: String
    let address: String
    /// The test's own connection, to drive the mock (not the radio's).
    let client: BusConnection
    private let daemon: Process
    private var blueZ: Process?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `refusing`: the bus's policy denies org.bluez's ObjectManager (as the system bus's does
    /// for a user outside the group bluetooth); the mock's own methods stay allowed.
    init(refusing: Bool = false) throws {
        var template = Array("/tmp/runway-bluez-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "mkdtemp: \(Errno.current)")
        }
        directory = String(cString: made)
        let socket = directory + "/bus"
        try Self.config(socket: socket, refusing: refusing).write(
            toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(directory)/bus.conf", "--nofork", "--nopidfile"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        address = "unix:path=\(socket)"
        let deadline = MonotonicClock.seconds + 5
        var connection: BusConnection?
        while connection == nil, MonotonicClock.seconds < deadline {
            if access(socket, F_OK) == 0 { connection = try? BusConnection(address: address) }
            if connection == nil { usleep(10_000) }
        }
        guard let connection else {
            Self.end(daemon)
            throw Failure(description: "dbus-daemon did not start on \(socket)")
        }
        client = connection
    }

    static func config(socket: String, refusing: Bool) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
            \(refusing ? "<deny send_destination=\"org.bluez\" send_interface=\"org.freedesktop.DBus.ObjectManager\"/>" : "")
          </policy>
        </busconfig>
        """
    }

    /// Lifts the refusal (`init(refusing:)`): the bus reloads a policy that allows everything.
    func allow() throws {
        try Self.config(socket: directory + "/bus", refusing: false).write(
            toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        _ = try client.call(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReloadConfig")
    }

    deinit { stop() }

    /// SIGKILL, not terminate()'s SIGTERM: children of the test runner inherit its blocked
    /// signal mask, and SIGTERM would stay pending forever (seen: dbus-daemon and python both
    /// with SIGTERM blocked). For the mock bluetoothd it is a crash, which BlueZRadio must
    /// handle anyway.
    static func end(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Starts the mock bluetoothd and waits until it owns org.bluez.
    func startBlueZ() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", "--session", "--template", Self.fixture]
        process.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
        _ = FileManager.default.createFile(atPath: directory + "/bluez.log", contents: nil)
        let log = FileHandle(forWritingAtPath: directory + "/bluez.log")
        process.standardOutput = log
        process.standardError = log
        try process.run()
        blueZ = process
        let deadline = MonotonicClock.seconds + 10
        while MonotonicClock.seconds < deadline {
            let owned = try client.call(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                [.string("org.bluez")])
            if owned.first?.boolean == true { return }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        let said = (try? String(contentsOfFile: directory + "/bluez.log", encoding: .utf8)) ?? ""
        throw Failure(description: "the mock bluetoothd did not take org.bluez: \(said)")
    }

    /// Ends the mock bluetoothd (org.bluez leaves the bus).
    func stopBlueZ() {
        guard let process = blueZ else { return }
        blueZ = nil
        Self.end(process)
    }

    /// Ends the dbus-daemon itself: every connection on it (the radio's) is lost.
    func killBus() { Self.end(daemon) }

    func stop() {
        stopBlueZ()
        Self.end(daemon)
        try? FileManager.default.removeItem(atPath: directory)
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

    func addAdapter() throws { try mock("AddAdapter", [.string("hci0"), .string("runway")]) }

    @discardableResult
    func addSensor(_ address: String, _ name: String, _ kind: SensorKind, rssi: Int16) throws -> String {
        try mock(
            "AddSensor",
            [.string("hci0"), .string(address), .string(name), .string(kind.rawValue), .int16(rssi)]
        ).first?.string ?? ""
    }

    func notify(_ address: String, _ characteristic: UInt16, _ value: [UInt8]) throws {
        try mock("Notify", [.string(address), .uint16(characteristic), .bytes(value)])
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
