import Foundation
import RunWayStore
import RunWayTestSupport
import Synchronization
import Testing

/// runwayd on the real board's path with the real `BlueZRadio`: DBUS_SYSTEM_BUS_ADDRESS puts a
/// private bus in the system bus's place, with python-dbusmock's BlueZ on it (a strap and a
/// footpod, Tests/Fixtures/bluetooth/bluez_sensors.py), and everything is asked through the
/// built `runway`, as a runner would. Every wait polls with a generous deadline: nothing here
/// asserts on a fixed sleep.
@Suite("runwayd with BlueZ (the mock bluetoothd on a private bus)", .serialized)
struct DaemonBlueZTests {
    static let strap = "F0:13:C3:AA:00:01"
    static let strapName = "Polar H10 AA0001"
    static let footpod = "D4:22:CD:00:00:02"
    static let footpodName = "Stryd"

    static var runwayBinary: String {
        URL(fileURLWithPath: DaemonEndToEndTests.executable).deletingLastPathComponent()
            .appendingPathComponent("runway").path
    }

    /// The private bus (BlueZ started on it or not), a board directory and runwayd on the bus.
    final class Rig: @unchecked Sendable {
        // Touched only by the test that owns it.
        let mock: MockBlueZ
        let board: DaemonRealBoardTests.Board
        let logPath: String
        let errors: FileHandle
        var daemon: Process?

        init(blueZ: Bool = true) throws {
            mock = try MockBlueZ()
            if blueZ {
                try mock.startBlueZ()
                try mock.addAdapter()
                try mock.addSensor(
                    DaemonBlueZTests.strap, DaemonBlueZTests.strapName, kind: "heart_rate", rssi: -58)
                try mock.addSensor(
                    DaemonBlueZTests.footpod, DaemonBlueZTests.footpodName, kind: "cadence", rssi: -71)
            }
            board = try DaemonRealBoardTests.Board()
            (logPath, errors) = try board.logFile()
        }

        func start() throws {
            daemon = try board.daemon(errors: errors, environment: ["DBUS_SYSTEM_BUS_ADDRESS": mock.address])
        }

        /// SIGTERM and its exit status.
        func terminate() -> Int32? {
            guard let daemon, daemon.isRunning else { return nil }
            kill(daemon.processIdentifier, SIGTERM)
            daemon.waitUntilExit()
            return daemon.terminationStatus
        }

        func stop() {
            if let daemon, daemon.isRunning {
                kill(daemon.processIdentifier, SIGKILL)
                daemon.waitUntilExit()
            }
            mock.stop()
            try? FileManager.default.removeItem(atPath: board.directory)
        }

        var log: String { DaemonRealBoardTests.text(logPath) }

        func count(_ line: String) -> Int { log.components(separatedBy: line).count - 1 }

        /// `runway ARGUMENTS --socket …`, off the pool.
        func runway(_ arguments: [String], socket: Bool = true) async throws -> ChildOutput {
            let all = arguments + (socket ? ["--socket", board.socket] : [])
            return try await offPool { try runToEnd(DaemonBlueZTests.runwayBinary, all) }
        }

        /// `runway ARGUMENTS --json`'s output, parsed; a failing command is recorded.
        func json(_ arguments: [String]) async throws -> Any? {
            let said = try await runway(arguments + ["--json"])
            guard said.status == 0 else {
                Issue.record("runway \(arguments.joined(separator: " ")): \(said.status) \(said.stderr)")
                return nil
            }
            return try JSONSerialization.jsonObject(with: Data(said.stdout.utf8))
        }

        /// `runway sensors list --json`, by address.
        func sensors() async throws -> [String: [String: Any]] {
            let list = try await json(["sensors", "list"]) as? [[String: Any]] ?? []
            return Dictionary(list.map { ($0["address"] as? String ?? "", $0) }) { first, _ in first }
        }

        /// Polls `check` every 100 ms until it holds or `seconds` pass; whether it held.
        func eventually(_ seconds: Double = 30, _ check: () async throws -> Bool) async throws -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if try await check() { return true }
                try await Task.sleep(for: .milliseconds(100))
            }
            return try await check()
        }

        /// runwayd's sensor list until `address` is connected with its battery read.
        func connected(_ address: String, seconds: Double = 30) async throws -> Bool {
            try await eventually(seconds) {
                let sensor = try await sensors()[address]
                return sensor?["connected"] as? Bool == true && sensor?["battery_percent"] as? Double == 87
            }
        }

        func pair(_ which: String) async throws {
            let said = try await runway(["sensors", "pair", which])
            #expect(said.status == 0, "pair \(which): \(said.stderr)")
            #expect(said.stdout.contains("paired"), "\(said.stdout)")
        }
    }

    /// Sends heart-rate notifications from the mock every 200 ms (the value the test sets) until
    /// told to stop, as a strap on a runner does.
    final class Heart: Sendable {
        let beats = Mutex<UInt8>(150)
        let running = Mutex(true)

        func start(_ mock: MockBlueZ) {
            let thread = Thread { [self] in
                while running.withLock({ $0 }) {
                    let bpm = beats.withLock { $0 }
                    try? mock.notify(DaemonBlueZTests.strap, 0x2A37, [0x16, bpm, 0x00, 0x04])
                    usleep(200_000)
                }
            }
            thread.start()
        }
    }

    @Test func aStrapAndAFootpodAreScannedPairedAndReadThroughRunway() async throws {
        let rig = try Rig()
        defer { rig.stop() }
        try rig.start()
        #expect(try await rig.eventually { rig.log.contains("Bluetooth adapter ready") }, "\(rig.log)")

        // Scan: both sensors, with their kinds and signal, neither paired yet.
        let scanned = try await rig.json(["sensors", "scan", "--seconds", "2"]) as? [[String: Any]] ?? []
        let byAddress = Dictionary(scanned.map { ($0["address"] as? String ?? "", $0) }) { a, _ in a }
        #expect(byAddress.count == 2, "\(scanned)")
        #expect(byAddress[Self.strap]?["kinds"] as? [String] == ["heart_rate"])
        #expect(byAddress[Self.strap]?["name"] as? String == Self.strapName)
        #expect(byAddress[Self.strap]?["rssi"] as? Double == -58)
        #expect(byAddress[Self.footpod]?["kinds"] as? [String] == ["cadence"])
        #expect(byAddress[Self.footpod]?["paired"] as? Bool == false)

        // Pair by address and by name: each connects, its battery read.
        try await rig.pair(Self.strap)
        // The footpod refusing first: the runner is told, and nothing is paired.
        try rig.mock.call("RefusePairing", "ss", [Self.footpod, "org.bluez.Error.AuthenticationFailed"])
        let refused = try await rig.runway(["sensors", "pair", Self.footpodName])
        #expect(refused.status != 0 && refused.stderr.contains(Self.footpodName), "\(refused.stderr)")
        #expect(try await rig.sensors().keys.sorted() == [Self.strap])
        try rig.mock.call("RefusePairing", "ss", [Self.footpod, ""])
        try await rig.pair(Self.footpodName)
        #expect(try await rig.connected(Self.strap), "\(rig.log)")
        #expect(try await rig.connected(Self.footpod), "\(rig.log)")
        #expect(
            try rig.mock.property("/org/bluez/hci0/dev_F0_13_C3_AA_00_01", "org.bluez.Device1", "Trusted")
                == "b true")

        // Notifications: the list shows the values.
        let readings = try await rig.eventually {
            try rig.mock.notify(Self.strap, 0x2A37, [0x16, 142, 0x00, 0x04])
            try rig.mock.notify(Self.footpod, 0x2A53, [0x05, 0x80, 0x03, 176, 0x78, 0x00])
            let sensors = try await rig.sensors()
            // In one snapshot: a value older than `ControlSensor.staleAfter` is not sent, and
            // under a loaded machine a second read came after it (contact read nil).
            return sensors[Self.strap]?["heart_rate"] as? Double == 142
                && sensors[Self.strap]?["contact"] as? Bool == true
                && sensors[Self.footpod]?["cadence"] as? Double == 176
        }
        let read = try await rig.sensors()
        #expect(readings, "\(read)")
        let status = try await rig.json(["status"]) as? [String: Any]
        let inStatus = status?["sensors"] as? [[String: Any]] ?? []
        #expect(
            Set(inStatus.compactMap { $0["address"] as? String }) == [Self.strap, Self.footpod], "\(inStatus)"
        )
        #expect(inStatus.allSatisfy { $0["connected"] as? Bool == true }, "\(inStatus)")

        // Garbage (empty, truncated, a flood of it) costs a log line, never runwayd; good
        // payloads after it are read again.
        for garbage: [UInt8] in [[], [0xFF], [0x01, 7], [0x10, 72, 1]] {
            try rig.mock.notify(Self.strap, 0x2A37, garbage)
        }
        try rig.mock.call("Flood", "sqayu", [Self.strap, String(0x2A37), "1", "255", "2000"])
        try rig.mock.call("Flood", "sqayu", [Self.footpod, String(0x2A53), "2", "1", "2", "2000"])
        let after = try await rig.eventually {
            try rig.mock.notify(Self.strap, 0x2A37, [0x06, 151])
            return try await rig.sensors()[Self.strap]?["heart_rate"] as? Double == 151
        }
        #expect(after, "\(rig.log)")
        #expect(rig.daemon?.isRunning == true)
        #expect(rig.log.contains("malformed"), "\(rig.log)")
        #expect(rig.count("malformed") < 10, "a burst is one line: \(rig.log)")

        // Pairing again what BlueZ and runwayd both have paired: no error, still connected.
        try await rig.pair(Self.strap)
        let repaired = try await rig.connected(Self.strap)
        let listedAgain = try await rig.sensors()
        #expect(repaired, "\(listedAgain)")

        // A restart: both are connected again from runwayd's own list (bonded in BlueZ already).
        #expect(rig.terminate() == 0)
        try rig.start()
        #expect(try await rig.connected(Self.strap), "\(rig.log)")
        #expect(try await rig.connected(Self.footpod), "\(rig.log)")

        // Forgotten: gone from runwayd's list and from BlueZ (a scan no longer finds it).
        let forgot = try await rig.runway(["sensors", "forget", Self.footpodName])
        #expect(forgot.status == 0 && forgot.stdout.contains("forgot"), "\(forgot.stderr)")
        #expect(try await rig.sensors().keys.sorted() == [Self.strap])
        // (The strap, connected, no longer advertises: a scan does not list it either.)
        let rescanned = try await rig.json(["sensors", "scan", "--seconds", "1"]) as? [[String: Any]] ?? []
        #expect(rescanned.compactMap { $0["address"] as? String } == [], "\(rescanned)")
        #expect(rig.terminate() == 0)
        #expect(!rig.log.contains("sensor lost"), "a stop or a forget is not a loss: \(rig.log)")
        // runwayd stopping lets the strap go (BlueZ would keep the link otherwise).
        let connected = try await rig.eventually(10) {
            try rig.mock.property("/org/bluez/hci0/dev_F0_13_C3_AA_00_01", "org.bluez.Device1", "Connected")
                == "b false"
        }
        #expect(connected)
    }

    /// A flight flown through a real gpsd with the strap notifying: it lands with the strap's
    /// average and maximum; a drop mid-flight is said once and the reconnect logged, the flight
    /// flies on and takes the strap's readings again.
    @Test func aFlightWithTheStrapLandsWithItsHeartRateThroughADrop() async throws {
        let rig = try Rig()
        defer { rig.stop() }
        let walk = try rig.board.walk(parts: 1, leadIns: 2)
        // Paced at 7 ms a sentence (~48 fixes a second): the walk takes ~25 s, room for the drop
        // and the reconnect in its middle on a loaded machine.
        let fake = try GPSFake(log: walk[0], port: rig.board.port, cycle: 0.007)
        defer { fake.stop() }
        try rig.start()
        #expect(try await rig.eventually { rig.log.contains("Bluetooth adapter ready") }, "\(rig.log)")
        try await rig.pair(Self.strap)
        #expect(try await rig.connected(Self.strap), "\(rig.log)")

        let heart = Heart()
        heart.start(rig.mock)
        defer { heart.running.withLock { $0 = false } }
        _ = try DaemonEndToEndTests.request(rig.board.socket, #"{"command":"start"}"#)
        func distance() throws -> Double { try rig.board.status()["distance_m"] as? Double ?? 0 }
        #expect(try await rig.eventually(60) { try distance() > 200 }, "\(rig.log)")

        // Out of range mid-flight: said once; back: connected again, the flight on.
        try rig.mock.dropLink(Self.strap)
        #expect(try await rig.eventually { rig.count("sensor lost: \(Self.strapName)") >= 1 }, "\(rig.log)")
        #expect(
            try await rig.eventually { rig.count("sensor connected: \(Self.strapName)") >= 2 }, "\(rig.log)")
        let atReconnect = try distance()
        heart.beats.withLock { $0 = 172 }
        #expect(
            try await rig.eventually {
                try await rig.sensors()[Self.strap]?["heart_rate"] as? Double == 172
            }, "\(rig.log)")
        // Two seconds of 172 at runwayd: a sample goes on at most once a second.
        let seen = Date()
        _ = try await rig.eventually(10) { Date().timeIntervalSince(seen) > 2.5 }
        heart.beats.withLock { $0 = 150 }
        // The flight flies on (no need to wait for the walk's end).
        #expect(
            try await rig.eventually(60) { try distance() > atReconnect + 100 },
            "the flight flew on after the reconnect")
        #expect(try rig.board.status()["phase"] as? String == "cruise")
        // "Back" is said once the link has held 30 s (a flapping strap is not announced again and
        // again), still in flight.
        #expect(
            try await rig.eventually(60) { rig.count("callout: sensor back") == 1 },
            "sensor back said once the link held: \(rig.log)")
        let landed = try DaemonEndToEndTests.request(rig.board.socket, #"{"command":"stop"}"#)
        #expect(landed["result"] as? String == "landed")
        heart.running.withLock { $0 = false }
        #expect(rig.terminate() == 0)
        #expect(rig.count("sensor lost: \(Self.strapName)") == 1, "\(rig.log)")
        #expect(rig.count("sensor connected: \(Self.strapName)") == 2, "\(rig.log)")
        #expect(rig.count("callout: sensor lost") == 1, "\(rig.log)")
        #expect(rig.count("callout: sensor back") == 1, "\(rig.log)")

        let entry = try #require(try Logbook(path: rig.board.logbook, access: .readOnly).entries().first)
        let shown = try await rig.runway(
            ["show", String(entry.id), "--json", "--logbook", rig.board.logbook], socket: false)
        #expect(shown.status == 0, "\(shown.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any] ?? [:]
        let average = Self.number(report, "avg_heart_rate")
        let maximum = Self.number(report, "max_heart_rate")
        #expect(average.map { (150...172).contains($0) } == true, "avg \(String(describing: average))")
        #expect(maximum == 172, "max \(String(describing: maximum)): \(shown.stdout.prefix(2_000))")
        let splits = report["splits"] as? [[String: Any]] ?? []
        #expect(splits.contains { $0["max_heart_rate"] as? Double == 172 }, "\(splits)")
    }

    /// bluetoothd not running: `runway sensors scan` says so, runwayd runs on; bluetoothd
    /// starting is noticed, and its crash with a sensor connected is a loss, not runwayd's end.
    @Test func noBlueZIsSaidClearlyAndRunwaydRunsOn() async throws {
        let rig = try Rig(blueZ: false)
        defer { rig.stop() }
        try rig.start()
        let refused = try await rig.runway(["sensors", "scan", "--seconds", "1"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("BlueZ is not running"), "\(refused.stderr)")
        #expect(refused.stderr.contains("systemctl start bluetooth"), "\(refused.stderr)")
        #expect(try await rig.runway(["status"]).status == 0)
        #expect(rig.daemon?.isRunning == true)

        // bluetoothd starts: runwayd notices, a scan finds the strap.
        try rig.mock.startBlueZ()
        try rig.mock.addAdapter()
        try rig.mock.addSensor(Self.strap, Self.strapName, kind: "heart_rate", rssi: -58)
        #expect(try await rig.eventually { rig.log.contains("Bluetooth adapter ready") }, "\(rig.log)")
        let scanned = try await rig.json(["sensors", "scan", "--seconds", "1"]) as? [[String: Any]] ?? []
        #expect(scanned.compactMap { $0["address"] as? String } == [Self.strap], "\(scanned)")
        try await rig.pair(Self.strap)
        #expect(try await rig.connected(Self.strap), "\(rig.log)")

        // bluetoothd dies: the strap is lost, runwayd says BlueZ is gone and runs on.
        rig.mock.stopBlueZ()
        #expect(try await rig.eventually { rig.count("sensor lost: \(Self.strapName)") == 1 }, "\(rig.log)")
        let gone = try await rig.runway(["sensors", "scan", "--seconds", "1"])
        #expect(gone.stderr.contains("BlueZ is not running"), "\(gone.stderr)")
        let listed = try await rig.sensors()
        #expect(listed[Self.strap]?["connected"] as? Bool == false, "\(listed)")
        #expect(rig.daemon?.isRunning == true)

        // It comes back (its devices afresh): the strap is connected again on its own.
        try rig.mock.startBlueZ()
        try rig.mock.addAdapter()
        try rig.mock.addSensor(Self.strap, Self.strapName, kind: "heart_rate", rssi: -58)
        #expect(try await rig.connected(Self.strap), "\(rig.log)")
        #expect(rig.terminate() == 0)
    }

    /// A strap bonded in BlueZ before runwayd pairs it (bluetoothctl did), a runwayd killed with
    /// the link still up in BlueZ, and the adapter switched off and on: each time the strap is
    /// runwayd's and connected again, without a word from the runner.
    @Test func aBondedStrapAKilledRunwaydAndAnAdapterOffAndOn() async throws {
        let rig = try Rig()
        defer { rig.stop() }
        let device = "/org/bluez/hci0/dev_F0_13_C3_AA_00_01"
        try rig.mock.busctl(["set-property", "org.bluez", device, "org.bluez.Device1", "Paired", "b", "true"])
        try rig.start()
        #expect(try await rig.eventually { rig.log.contains("Bluetooth adapter ready") }, "\(rig.log)")
        try await rig.pair(Self.strap)
        #expect(try await rig.connected(Self.strap), "\(rig.log)")
        #expect(try rig.mock.property(device, "org.bluez.Device1", "Trusted") == "b true")

        // SIGKILL: BlueZ keeps the link (Connected stays true); the next runwayd takes it up.
        if let daemon = rig.daemon {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        #expect(try rig.mock.property(device, "org.bluez.Device1", "Connected") == "b true")
        try rig.start()
        #expect(try await rig.connected(Self.strap), "\(rig.log)")
        let read = try await rig.eventually {
            try rig.mock.notify(Self.strap, 0x2A37, [0x06, 133])
            return try await rig.sensors()[Self.strap]?["heart_rate"] as? Double == 133
        }
        #expect(read, "\(rig.log)")

        // The adapter off: the strap lost, a scan refused as such; on: connected again.
        let adapter = ["org.bluez", "/org/bluez/hci0", "org.bluez.Adapter1", "Powered", "b"]
        try rig.mock.busctl(["set-property"] + adapter + ["false"])
        #expect(try await rig.eventually { rig.count("sensor lost: \(Self.strapName)") == 1 }, "\(rig.log)")
        let off = try await rig.runway(["sensors", "scan", "--seconds", "1"])
        #expect(off.status != 0 && off.stderr.contains("adapter is off"), "\(off.stderr)")
        try rig.mock.busctl(["set-property"] + adapter + ["true"])
        #expect(try await rig.connected(Self.strap), "\(rig.log)")
        let again = try await rig.eventually {
            try rig.mock.notify(Self.strap, 0x2A37, [0x06, 134])
            return try await rig.sensors()[Self.strap]?["heart_rate"] as? Double == 134
        }
        #expect(again, "\(rig.log)")
        #expect(rig.terminate() == 0)
    }

    /// A number anywhere in a report's objects under `key` (the first found, depth first).
    static func number(_ value: Any, _ key: String) -> Double? {
        if let object = value as? [String: Any] {
            if let found = object[key] as? Double { return found }
            for (_, inner) in object { if let found = number(inner, key) { return found } }
        } else if let array = value as? [Any] {
            for inner in array { if let found = number(inner, key) { return found } }
        }
        return nil
    }
}
