import Foundation
import Glibc

/// A private dbus-daemon (a temporary config, its own socket) and, on it when started,
/// python-dbusmock running `Tests/Fixtures/bluetooth/bluez_sensors.py`: BlueZ's object model with
/// sensors whose GATT objects, notifications and failures the test controls. Everything it
/// starts is ended in `stop()` (and deinit).
///
/// Process-level on purpose: the mock is driven with `busctl --address`, never through
/// RunWayBluetooth's own bus code, so any test target (RunWayBluetoothTests for the radio,
/// RunWayDaemonTests for runwayd as a process) can use it, and a bug in the code under test
/// cannot hide in the harness too.
public final class MockBlueZ: @unchecked Sendable {
    // Mutable state is touched only by the test that owns the instance.
    public static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/bluetooth/bluez_sensors.py").standardizedFileURL.path

    public let directory: String
    /// The bus's address (`unix:path=…`): DBUS_SYSTEM_BUS_ADDRESS for a runwayd under test.
    public let address: String
    private let daemon: Process
    private var blueZ: Process?

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `refusing`: the bus's policy denies org.bluez's ObjectManager (as the system bus's does
    /// for a user outside the group bluetooth); the mock's own methods stay allowed.
    public init(refusing: Bool = false) throws {
        for tool in ["/usr/bin/dbus-daemon", "/usr/bin/busctl", "/usr/bin/python3"] {
            guard FileManager.default.isExecutableFile(atPath: tool) else {
                throw Failure(description: "\(tool) is missing: make test installs dbus and python3-dbusmock")
            }
        }
        var template = Array("/tmp/runway-bluez-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(description: "mkdtemp: errno \(errno)")
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
        let deadline = Date().addingTimeInterval(10)
        var up = false
        while !up, Date() < deadline {
            up = access(socket, F_OK) == 0 && (try? hasOwner("org.freedesktop.DBus")) == true
            if !up { usleep(10_000) }
        }
        guard up else {
            Self.end(daemon)
            throw Failure(description: "dbus-daemon did not start on \(socket)")
        }
    }

    deinit { stop() }

    /// The private bus's configuration: everything allowed, but with `refusing` org.bluez's
    /// ObjectManager (as the system bus's policy does for a user it does not let in).
    public static func config(socket: String, refusing: Bool) -> String {
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

    /// Ends the dbus-daemon itself: every connection on it (the radio's) is lost.
    public func killBus() { Self.end(daemon) }

    /// SIGKILL, not terminate()'s SIGTERM: children of the test runner inherit its blocked
    /// signal mask, and SIGTERM would stay pending forever (seen: dbus-daemon and python both
    /// with SIGTERM blocked). For the mock bluetoothd it is a crash, which BlueZRadio must
    /// handle anyway.
    public static func end(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Starts the mock bluetoothd and waits until it owns org.bluez.
    public func startBlueZ() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", "--session", "--template", Self.fixture]
        process.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
        _ = FileManager.default.createFile(atPath: directory + "/bluez.log", contents: nil)
        let output = FileHandle(forWritingAtPath: directory + "/bluez.log")
        process.standardOutput = output
        process.standardError = output
        try process.run()
        blueZ = process
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try hasOwner("org.bluez") { return }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        throw Failure(description: "the mock bluetoothd did not take org.bluez: \(log(of: "bluez.log"))")
    }

    /// Ends the mock bluetoothd (org.bluez leaves the bus).
    public func stopBlueZ() {
        guard let process = blueZ else { return }
        blueZ = nil
        Self.end(process)
    }

    public func stop() {
        stopBlueZ()
        Self.end(daemon)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Whether `name` has an owner on the bus.
    public func hasOwner(_ name: String) throws -> Bool {
        let said = try busctl([
            "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
            "s",
            name,
        ])
        return said.hasPrefix("b true")
    }

    /// Runs busctl on the bus; its standard output, or a `Failure` with what it said.
    @discardableResult
    public func busctl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/busctl")
        process.arguments = ["--address=\(address)", "--timeout=30"] + arguments
        let said = try runToEnd(process)
        guard said.status == 0 else {
            throw Failure(description: "busctl \(arguments.joined(separator: " ")): \(said.stderr)")
        }
        return said.stdout
    }

    /// Calls one of the mock's org.bluez.Mock methods on /, its arguments in busctl's words
    /// (`signature` then one word per value; an `ay` is its count, then its bytes).
    @discardableResult
    public func call(_ member: String, _ signature: String = "", _ arguments: [String] = []) throws -> String
    {
        try busctl(
            // `--`: an argument like -58 (an RSSI) is a value, not one of busctl's options.
            ["call", "--", "org.bluez", "/", "org.bluez.Mock", member]
                + (signature.isEmpty ? [] : [signature])
                + arguments)
    }

    public func addAdapter() throws { try call("AddAdapter", "ss", ["hci0", "runway"]) }

    /// A sensor (`kind`: heart_rate or cadence, as SensorKind's raw value) near the adapter.
    public func addSensor(_ address: String, _ name: String, kind: String, rssi: Int16) throws {
        try call("AddSensor", "ssssn", ["hci0", address, name, kind, String(rssi)])
    }

    /// A notification of the characteristic `uuid` (16 bits) with `value`.
    public func notify(_ address: String, _ uuid: UInt16, _ value: [UInt8]) throws {
        try call("Notify", "sqay", [address, String(uuid), String(value.count)] + value.map { String($0) })
    }

    /// The sensor out of range: Connected and ServicesResolved false.
    public func dropLink(_ address: String) throws { try call("DropLink", "s", [address]) }

    /// A property of one of the mock's objects as busctl prints it (`b true`, `s "x"`, …).
    public func property(_ path: String, _ interface: String, _ name: String) throws -> String {
        try busctl(["get-property", "org.bluez", path, interface, name]).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// What the mock bluetoothd wrote (its log, for a failing test's message).
    public func log(of file: String) -> String {
        (try? String(contentsOfFile: directory + "/" + file, encoding: .utf8)) ?? ""
    }
}
