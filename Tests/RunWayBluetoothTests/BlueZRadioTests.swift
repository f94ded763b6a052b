import Glibc
import RunWaySystem
import RunWayTestSupport
import Testing

@testable import RunWayBluetooth

/// BlueZRadio against BlueZ's object model (python-dbusmock's bluez5 template, extended with
/// GATT objects by Tests/Fixtures/bluetooth/bluez_sensors.py) on a private dbus-daemon.
@Suite("BlueZ over D-Bus", .serialized)
struct BlueZRadioTests {
    static let strap = BluetoothAddress(parsing: "F0:13:C3:AA:00:01")!
    static let footpod = BluetoothAddress(parsing: "D4:22:CD:00:00:02")!
    /// What bluez5's AddAdapter("hci0") calls the adapter.
    static let adapterAddress = BluetoothAddress(parsing: "00:01:02:03:04:05")!

    /// A bus with BlueZ, an adapter, a strap and a footpod; the radio on it.
    func withSensors(_ body: (MockBlueZ, BlueZRadio) throws -> Void) throws {
        let mock = try MockBlueZ()
        defer { mock.stop() }
        try mock.startBlueZ()
        try mock.addAdapter()
        try mock.addSensor(Self.strap.text, "Polar H10 AA0001", .heartRate, rssi: -58)
        try mock.addSensor(Self.footpod.text, "Stryd", .cadence, rssi: -71)
        let radio = try BlueZRadio(address: mock.address)
        #expect(try radio.process() == [.adapter(.ready(address: Self.adapterAddress))])
        try body(mock, radio)
    }

    func connected(_ radio: BlueZRadio, _ address: BluetoothAddress) throws -> [SensorEvent] {
        try radio.connect(address)
        return try events(from: radio) { all in
            all.contains { if case .reading(address, .battery) = $0 { true } else { false } }
                || all.contains { if case .failed = $0 { true } else { false } }
        }
    }

    @Test func scanListsTheStrapAndTheFootpodWithKindsRSSIAndName() throws {
        let mock = try MockBlueZ()
        defer { mock.stop() }
        try mock.startBlueZ()
        try mock.addAdapter()
        try mock.addSensor(Self.strap.text, "Polar H10 AA0001", .heartRate, rssi: -58)
        try mock.mock("AddDevice", [.string("hci0"), .string("11:22:33:44:55:66"), .string("a phone")])
        let radio = try BlueZRadio(address: mock.address)
        _ = try radio.process()
        try radio.startScan()
        #expect(try mock.property("/org/bluez/hci0", "org.bluez.Adapter1", "Discovering") == .boolean(true))
        // The footpod is seen during the scan: InterfacesAdded, then its UUIDs and RSSI change.
        try mock.addSensor(Self.footpod.text, "Stryd", .cadence, rssi: -71)
        let devices = try radio.devices()
        #expect(
            devices == [
                SensorDevice(
                    address: Self.footpod, name: "Stryd", kinds: [.cadence], rssi: -71, paired: false,
                    connected: false),
                SensorDevice(
                    address: Self.strap, name: "Polar H10 AA0001", kinds: [.heartRate], rssi: -58,
                    paired: false,
                    connected: false),
            ])
        try radio.stopScan()
        #expect(try mock.property("/org/bluez/hci0", "org.bluez.Adapter1", "Discovering") == .boolean(false))
        // As bluetoothd does, the end of discovery takes every RSSI away: what a scan saw must be
        // read before it is stopped.
        #expect(try radio.devices().map(\.rssi) == [nil, nil])
    }

    /// A name from the air with terminal escapes, a bidi override or a line separator reaches
    /// runwayd's replies and log with each of them replaced by "?".
    @Test func aDeviceNameFromTheAirIsMadeSafeForDisplay() throws {
        let mock = try MockBlueZ()
        defer { mock.stop() }
        try mock.startBlueZ()
        try mock.addAdapter()
        try mock.addSensor(
            Self.strap.text, "Polar\u{1B}[2J\u{202E}H10\u{2028}x\u{200B}", .heartRate, rssi: -58)
        let radio = try BlueZRadio(address: mock.address)
        _ = try radio.process()
        #expect(try radio.devices().map(\.name) == ["Polar?[2J?H10?x?"])
        try mock.mock("RefuseConnect", [.string(Self.strap.text), .string("org.bluez.Error.Failed")])
        try radio.connect(Self.strap)
        let got = try events(from: radio) { !$0.isEmpty }
        #expect(
            got == [.failed(Self.strap, .connectFailed(name: "Polar?[2J?H10?x?", message: "Page Timeout"))])
    }

    @Test func pairTrustsTheStrap() throws {
        try withSensors { mock, radio in
            try radio.pair(Self.strap)
            let got = try events(from: radio) { !$0.isEmpty }
            #expect(got == [.paired(Self.strap)])
            let path = "/org/bluez/hci0/dev_F0_13_C3_AA_00_01"
            #expect(try mock.property(path, "org.bluez.Device1", "Paired") == .boolean(true))
            #expect(try mock.property(path, "org.bluez.Device1", "Trusted") == .boolean(true))
            // Pairing a bonded sensor again (BlueZ: AlreadyExists) is not a failure.
            try radio.pair(Self.strap)
            #expect(try events(from: radio) { !$0.isEmpty } == [.paired(Self.strap)])
        }
    }

    @Test func pairingRefusedIsReportedWithWhatToDo() throws {
        try withSensors { mock, radio in
            try mock.mock(
                "RefusePairing", [.string(Self.strap.text), .string("org.bluez.Error.AuthenticationFailed")])
            try radio.pair(Self.strap)
            let got = try events(from: radio) { !$0.isEmpty }
            let refusal = BluetoothError.pairingRefused(
                name: "Polar H10 AA0001", message: "Authentication Failed")
            #expect(got == [.pairFailed(Self.strap, refusal)])
            #expect(refusal.description.contains("wet the strap"))
        }
    }

    /// BlueZ already pairing the device (bluetoothctl at it): said as such, not as a D-Bus error.
    @Test func aPairingAlreadyUnderWayIsSaidAsSuch() throws {
        try withSensors { mock, radio in
            try mock.mock(
                "RefusePairing", [.string(Self.strap.text), .string("org.bluez.Error.InProgress")])
            try radio.pair(Self.strap)
            let got = try events(from: radio) { !$0.isEmpty }
            #expect(got == [.pairFailed(Self.strap, .alreadyPairing(name: "Polar H10 AA0001"))])
        }
    }

    /// bluetoothd not answering Pair in time: said as a timeout, and the pairing cancelled in
    /// bluetoothd, so the next try is not refused as "already pairing".
    @Test func aPairingThatTimesOutIsCancelled() throws {
        try withSensors { mock, radio in
            radio.pairingTimeout = 0.5
            try mock.mock("StallPairing", [.string(Self.strap.text), .uint32(1500)])
            try radio.pair(Self.strap)
            let got = try events(from: radio) { !$0.isEmpty }
            guard case .pairFailed(Self.strap, .timedOut) = got.first else {
                Issue.record("\(got)")
                return
            }
            // The mock answers CancelPairing once its stalled Pair is done.
            var cancelled = false
            for _ in 0..<50 where !cancelled {
                cancelled =
                    try mock.mock("PairingCancelled", [.string(Self.strap.text)]).first == .boolean(true)
                if !cancelled { usleep(100_000) }
            }
            #expect(cancelled)
        }
    }

    @Test func aSensorThatNeedsNoBondIsTrustedAnyway() throws {
        try withSensors { mock, radio in
            try mock.mock(
                "RefusePairing", [.string(Self.strap.text), .string("org.bluez.Error.NotSupported")])
            try radio.pair(Self.strap)
            #expect(try events(from: radio) { !$0.isEmpty } == [.paired(Self.strap)])
            let path = "/org/bluez/hci0/dev_F0_13_C3_AA_00_01"
            #expect(try mock.property(path, "org.bluez.Device1", "Trusted") == .boolean(true))
        }
    }

    @Test func aConnectThatFailsIsReportedAndCanBeTriedAgain() throws {
        try withSensors { mock, radio in
            try mock.mock("RefuseConnect", [.string(Self.strap.text), .string("org.bluez.Error.Failed")])
            try radio.connect(Self.strap)
            let got = try events(from: radio) { !$0.isEmpty }
            let failure = BluetoothError.connectFailed(name: "Polar H10 AA0001", message: "Page Timeout")
            #expect(got == [.failed(Self.strap, failure)])
            #expect(failure.description.contains("in range"))
            #expect(try connected(radio, Self.strap).first == .connected(Self.strap, kinds: [.heartRate]))
        }
    }

    @Test func zeroAndTwoHundredFiftyFiveBeatsArriveButAreNotHeartRates() throws {
        try withSensors { mock, radio in
            _ = try connected(radio, Self.strap)
            try mock.notify(Self.strap.text, 0x2A37, [0x06, 0])
            try mock.notify(Self.strap.text, 0x2A37, [0x06, 255])
            try mock.notify(Self.strap.text, 0x2A37, [0x04, 150])  // no skin contact
            let got = try events(from: radio) { $0.count >= 3 }
            let beats = got.compactMap { event -> HeartRateMeasurement? in
                if case .reading(Self.strap, .heartRate(let m)) = event { m } else { nil }
            }
            #expect(beats.map(\.beatsPerMinute) == [0, 255, 150])
            #expect(beats.allSatisfy { $0.usableHeartRate == nil })
        }
    }

    @Test func connectNotifyDropAndReconnect() throws {
        try withSensors { mock, radio in
            #expect(
                try connected(radio, Self.strap) == [
                    .connected(Self.strap, kinds: [.heartRate]), .reading(Self.strap, .battery(87)),
                ])
            // Contact detected, 140 bpm, one RR interval of 1024/1024 s.
            try mock.notify(Self.strap.text, 0x2A37, [0x16, 140, 0x00, 0x04])
            let beat = HeartRateMeasurement(
                beatsPerMinute: 140, contact: .detected, energyExpended: nil, rrIntervals: [1])
            #expect(try events(from: radio) { !$0.isEmpty } == [.reading(Self.strap, .heartRate(beat))])

            // Out of range: the drop is reported, later values are not readings any more.
            try mock.mock("DropLink", [.string(Self.strap.text)])
            #expect(try events(from: radio) { !$0.isEmpty } == [.disconnected(Self.strap)])
            try mock.notify(Self.strap.text, 0x2A37, [0x00, 99])
            #expect(try quietEvents(from: radio).isEmpty)

            // Back in range: connect again, and readings come again.
            #expect(try connected(radio, Self.strap).first == .connected(Self.strap, kinds: [.heartRate]))
            try mock.notify(Self.strap.text, 0x2A37, [0x00, 141])
            let again = HeartRateMeasurement(
                beatsPerMinute: 141, contact: .notSupported, energyExpended: nil, rrIntervals: [])
            #expect(try events(from: radio) { !$0.isEmpty } == [.reading(Self.strap, .heartRate(again))])

            try radio.disconnect(Self.strap)
            #expect(try radio.process() == [.disconnected(Self.strap)])
            #expect(try quietEvents(from: radio).isEmpty)  // BlueZ's Connected=false adds nothing
            #expect(
                try mock.property("/org/bluez/hci0/dev_F0_13_C3_AA_00_01", "org.bluez.Device1", "Connected")
                    == .boolean(false))
        }
    }

    @Test func theFootpodsCadenceSpeedAndStride() throws {
        try withSensors { mock, radio in
            #expect(try connected(radio, Self.footpod).first == .connected(Self.footpod, kinds: [.cadence]))
            // Running, 3.5 m/s, 176 steps/min, stride 1.20 m.
            try mock.notify(Self.footpod.text, 0x2A53, [0x05, 0x80, 0x03, 176, 0x78, 0x00])
            let step = RSCMeasurement(
                speed: 3.5, cadence: 176, strideLength: 1.2, totalDistance: nil, isRunning: true)
            #expect(
                try events(from: radio) { !$0.isEmpty } == [
                    .reading(Self.footpod, .runningSpeedCadence(step))
                ])
        }
    }

    @Test func garbageIsReportedOncePerBurst() throws {
        try withSensors { mock, radio in
            _ = try connected(radio, Self.strap)
            for garbage: [UInt8] in [[], [0x10, 72, 1], [0xFF], [0x01, 7]] {
                try mock.notify(Self.strap.text, 0x2A37, garbage)
            }
            try mock.notify(Self.strap.text, 0x2A37, [0x00, 150])
            try mock.notify(Self.strap.text, 0x2A37, [0x08])
            let got = try events(from: radio) { $0.count >= 4 }
            #expect(got.count == 4)
            guard got.count == 4 else { return }
            guard case .failed(Self.strap, .malformed(0x2A37, let reason)) = got[0] else {
                Issue.record("\(got[0])")
                return
            }
            #expect(reason == "an empty payload")
            func beat(_ bpm: Int) -> SensorEvent {
                .reading(
                    Self.strap,
                    .heartRate(
                        HeartRateMeasurement(
                            beatsPerMinute: bpm, contact: .notSupported, energyExpended: nil, rrIntervals: [])
                    ))
            }
            // [0x10, 72, 1]: a whole heart rate with a bad RR tail: the 72 goes on (in the burst).
            #expect(got[1] == beat(72))
            #expect(got[2] == beat(150))
            guard case .failed(Self.strap, .malformed(0x2A37, _)) = got[3] else {
                Issue.record("\(got[3])")
                return
            }
            #expect(radio.statistics.malformedPayloads == 5)
            #expect(try quietEvents(from: radio).isEmpty)
        }
    }

    @Test func aFloodOfNotificationsIsAllProcessedInBoundedBatches() throws {
        try withSensors { mock, radio in
            _ = try connected(radio, Self.strap)
            let count = 10_000
            try mock.mock(
                "Flood",
                [.string(Self.strap.text), .uint16(0x2A37), .bytes([0x06, 150]), .uint32(UInt32(count))])
            var readings = 0
            var largestBatch = 0
            let end = MonotonicClock.seconds + 30
            while readings < count, MonotonicClock.seconds < end {
                _ = Poll.readable(nil, radio.descriptor, timeout: Int32(1000 * min(1, radio.timeout() ?? 1)))
                let batch = try radio.process()
                largestBatch = max(largestBatch, batch.count)
                readings +=
                    batch.filter { if case .reading(Self.strap, .heartRate) = $0 { true } else { false } }
                    .count
            }
            #expect(readings == count)
            #expect(largestBatch <= BlueZRadio.eventBatchLimit)
            #expect(radio.statistics.readings == count + 1)  // and the battery
            #expect(radio.statistics.droppedReadings == 0)
        }
    }

    @Test func theStrapVanishingMidConnectFailsAtOnce() throws {
        try withSensors { mock, radio in
            try mock.mock("StallServices", [.string(Self.strap.text)])
            try radio.connect(Self.strap)
            #expect(try quietEvents(from: radio).isEmpty)  // connected, services not resolved
            try mock.mock("Vanish", [.string(Self.strap.text)])
            let started = MonotonicClock.seconds
            let got = try events(from: radio, within: 3) { !$0.isEmpty }
            #expect(MonotonicClock.seconds - started < 1)
            #expect(
                got == [
                    .failed(
                        Self.strap,
                        .connectFailed(
                            name: "Polar H10 AA0001", message: "BlueZ lost the device while connecting"))
                ])
            #expect(throws: BluetoothError.unknownDevice(Self.strap.text)) { try radio.connect(Self.strap) }
        }
    }

    @Test func servicesThatNeverResolveTimeOut() throws {
        try withSensors { mock, radio in
            radio.servicesTimeout = 0.3
            try mock.mock("StallServices", [.string(Self.strap.text)])
            try radio.connect(Self.strap)
            let got = try events(from: radio, within: 3) { !$0.isEmpty }
            #expect(
                got == [
                    .failed(Self.strap, .timedOut("Polar H10 AA0001 resolving its services within 0.3 s"))
                ])
            // The link is dropped (BlueZ is told to disconnect): a later connect starts afresh.
            let path = "/org/bluez/hci0/dev_F0_13_C3_AA_00_01"
            _ = try quietEvents(from: radio, for: 0.2)
            #expect(try mock.property(path, "org.bluez.Device1", "Connected") == .boolean(false))
        }
    }

    @Test func theAdapterPoweredOffDropsTheLinks() throws {
        try withSensors { mock, radio in
            _ = try connected(radio, Self.strap)
            _ = try mock.client.call(
                "org.bluez", "/org/bluez/hci0", "org.freedesktop.DBus.Properties", "Set",
                [.string("org.bluez.Adapter1"), .string("Powered"), .variant(.boolean(false))])
            #expect(
                try events(from: radio) { !$0.isEmpty } == [.disconnected(Self.strap), .adapter(.poweredOff)])
            #expect(throws: BluetoothError.adapterOff) { try radio.connect(Self.strap) }
        }
    }

    @Test func anUnknownSensorIsRefusedAtOnce() throws {
        try withSensors { _, radio in
            let stranger = BluetoothAddress(parsing: "00:00:00:00:00:09")!
            #expect(throws: BluetoothError.unknownDevice(stranger.text)) { try radio.connect(stranger) }
            #expect(throws: BluetoothError.unknownDevice(stranger.text)) { try radio.pair(stranger) }
        }
    }

    @Test func noBlueZIsReportedAndItsStartIsNoticed() throws {
        let mock = try MockBlueZ()
        defer { mock.stop() }
        let radio = try BlueZRadio(address: mock.address)
        #expect(radio.adapterState() == .noBlueZ)
        #expect(try radio.process() == [.adapter(.noBlueZ)])
        #expect(throws: BluetoothError.blueZNotRunning) { try radio.startScan() }
        #expect(throws: BluetoothError.blueZNotRunning) { _ = try radio.devices() }
        #expect(throws: BluetoothError.blueZNotRunning) { try radio.connect(Self.strap) }
        #expect(BluetoothError.blueZNotRunning.description.contains("systemctl start bluetooth"))

        try mock.startBlueZ()
        try mock.addAdapter()
        let back = try events(from: radio) { $0.last == .adapter(.ready(address: Self.adapterAddress)) }
        #expect(back.last == .adapter(.ready(address: Self.adapterAddress)))
        mock.stopBlueZ()
        #expect(try events(from: radio) { !$0.isEmpty } == [.adapter(.noBlueZ)])
    }

    @Test func bluetoothdStoppingDropsTheLink() throws {
        try withSensors { mock, radio in
            _ = try connected(radio, Self.strap)
            mock.stopBlueZ()
            #expect(
                try events(from: radio) { $0.count >= 2 } == [.disconnected(Self.strap), .adapter(.noBlueZ)])
        }
    }

    @Test func aBusThatRefusesUsSaysSoNotThatBlueZIsMissing() throws {
        let mock = try MockBlueZ(refusing: true)
        defer { mock.stop() }
        try mock.startBlueZ()
        try mock.addAdapter()
        let radio = try BlueZRadio(address: mock.address)
        #expect(try radio.process() == [.adapter(.noBlueZ)])
        guard case .permissionDenied(let message) = radio.blueZUnavailable else {
            Issue.record("\(radio.blueZUnavailable)")
            return
        }
        #expect(throws: BluetoothError.permissionDenied(message)) { try radio.startScan() }
        #expect(BluetoothError.permissionDenied(message).description.contains("group bluetooth"))
    }

    /// A GetManagedObjects refused (or not answered) at start is asked again: the state does
    /// not stay `.noBlueZ` until bluetoothd happens to restart.
    @Test func aRefusedReadOfBlueZsObjectsIsTriedAgain() throws {
        let mock = try MockBlueZ(refusing: true)
        defer { mock.stop() }
        try mock.startBlueZ()
        try mock.addAdapter()
        let radio = try BlueZRadio(address: mock.address)
        radio.refreshRetry = 0.3
        #expect(try radio.process() == [.adapter(.noBlueZ)])
        let wait = try #require(radio.timeout())
        #expect(wait > 0 && wait <= 0.3)
        try mock.allow()
        let back = try events(from: radio, within: 5) { !$0.isEmpty }
        #expect(back == [.adapter(.ready(address: Self.adapterAddress))])
        #expect(radio.timeout() == nil)
    }

    @Test func noAdapterIsReported() throws {
        let mock = try MockBlueZ()
        defer { mock.stop() }
        try mock.startBlueZ()
        let radio = try BlueZRadio(address: mock.address)
        #expect(try radio.process() == [.adapter(.noAdapter)])
        #expect(throws: BluetoothError.noAdapter) { try radio.startScan() }
        #expect(throws: BluetoothError.noAdapter) { try radio.pair(Self.strap) }
        #expect(try radio.devices().isEmpty)
        try mock.addAdapter()
        #expect(try events(from: radio) { !$0.isEmpty } == [.adapter(.ready(address: Self.adapterAddress))])
    }

    /// The bus connection lost with events still waiting: `process()` throws `.busUnavailable`
    /// and leaves nothing behind that would make `timeout()` say 0 (a tight loop on a dead fd).
    @Test func aLostBusLeavesNoTimeoutOfZero() throws {
        let mock = try MockBlueZ()
        defer { mock.stop() }
        let radio = try BlueZRadio(address: mock.address)  // `.adapter(.noBlueZ)` waiting
        #expect(radio.timeout() == 0)
        mock.killBus()
        var thrown: BluetoothError?
        do throws(BluetoothError) { _ = try radio.process() } catch { thrown = error }
        guard case .busUnavailable? = thrown else {
            Issue.record("\(String(describing: thrown))")
            return
        }
        #expect(radio.timeout() != 0)
    }

    /// A bus socket that accepts the connection and never answers (a dbus-daemon stuck at
    /// boot): making the radio fails within seconds, not sd-bus's default 25 s.
    @Test func aBusThatNeverAnswersIsGivenUpWithinSeconds() throws {
        let path = "/tmp/runway-mute-\(getpid()).sock"
        unlink(path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            close(listener)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0 && listen(listener, 4) == 0)
        let started = MonotonicClock.seconds
        #expect(throws: BluetoothError.self) { _ = try BlueZRadio(address: "unix:path=\(path)") }
        #expect(MonotonicClock.seconds - started < 5, "\(MonotonicClock.seconds - started) s")
    }

    @Test func aBusThatIsNotThereIsATypedError() {
        #expect(throws: BluetoothError.busUnavailable(errno: ENOENT)) {
            _ = try BlueZRadio(address: "unix:path=/nonexistent/runway/bus")
        }
    }
}
