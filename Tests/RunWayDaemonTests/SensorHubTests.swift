import Foundation
import RunWayBluetooth
import RunWayControl
import Synchronization
import Testing

@testable import RunWayDaemon

/// The sensor thread's decisions, stepped on a fake clock: nothing here sleeps or times anything.
/// A value behind a lock, for closures that outlive the test's frame.
final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
}

@Suite("Sensors: pairing, reconnecting, readings, garbage — on a fake clock")
struct SensorHubTests {
    /// A hub over `radio` with a store in a fresh folder, and what it logged and noticed.
    final class Rig {
        let radio: FakeRadio
        let folder: String
        let store: SensorStore
        let logged = Lines()
        let notices = Locked<[SensorHub.Notice]>([])
        let hub: SensorHub

        init(radio: FakeRadio = FakeRadio(), paired: [PairedSensor] = [], folder: String? = nil) throws {
            self.radio = radio
            self.folder = folder ?? NSTemporaryDirectory() + "rw-sensors-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: self.folder, withIntermediateDirectories: true)
            store = SensorStore(logbookDirectory: self.folder)
            if !paired.isEmpty { try store.save(paired) }
            let (logged, notices) = (logged, notices)
            hub = SensorHub(
                radio: { radio }, store: store, log: DaemonLog(toJournal: false) { logged.append($0) },
                notice: { notice in notices.withLock { $0.append(notice) } })
        }

        var noticed: [SensorHub.Notice] { notices.withLock { $0 } }

        /// Asks and steps until the answer comes (at most `until` seconds of fake time, 0.5 s a step).
        func ask(_ request: SensorRequest, at start: Double, until: Double = 40) -> (SensorAnswer, Double)? {
            var answer: SensorAnswer?
            hub.handle(request, at: start) { answer = $0 }
            var now = start
            while answer == nil, now < start + until {
                now += 0.5
                _ = hub.step(at: now)
            }
            return answer.map { ($0, now) }
        }
    }

    static let strap = PairedSensor(address: Sensors.polar, name: "Polar H10 1A2B3C4D", kinds: [.heartRate])
    static let pod = PairedSensor(address: Sensors.stryd, name: "Stryd", kinds: [.cadence])

    @Test func aPairedSensorIsConnectedAtStartAndItsReadingsReachTheEngineAtMostOnceASecond() throws {
        let rig = try Rig(radio: FakeRadio { $0.reachable = [Sensors.polar] }, paired: [Self.strap])
        rig.hub.start(at: 100)
        #expect(rig.hub.step(at: 100).isEmpty)  // the connect asked
        _ = rig.hub.step(at: 100.1)  // … and answered
        #expect(rig.radio.calls == ["connect A0:9E:1A:12:34:56"])
        #expect(rig.logged.all.contains("runwayd: sensor connected: Polar H10 1A2B3C4D"))
        // Told as connected once the link has held 30 s (the hub's deadline wakes it for that).
        #expect(rig.noticed.isEmpty && rig.hub.deadline(at: 100.1) == 130.1)
        _ = rig.hub.step(at: 130.1)
        #expect(rig.noticed == [.connected(Self.strap)])
        // A strap flooding at 50 Hz: one sample a second goes on, the newest.
        var sent: [SensorHub.Sample] = []
        for i in 0..<150 {
            let now = 101 + Double(i) * 0.02
            rig.radio.push(.reading(Sensors.polar, Sensors.heartRate(120 + i % 30)))
            sent += rig.hub.step(at: now)
        }
        sent += rig.hub.step(at: 104.5)
        #expect(sent.count == 4, "\(sent)")
        #expect(sent.allSatisfy { $0.kind == .heartRate })
        #expect(sent.last?.value == Double(120 + 149 % 30))
        // No skin contact: the strap's value is not a heart rate, and none goes on.
        rig.radio.push(.reading(Sensors.polar, Sensors.heartRate(0, contact: .notDetected)))
        #expect(rig.hub.step(at: 110).isEmpty)
        #expect(rig.hub.links[0].contact == false && rig.hub.links[0].heartRate == nil)
    }

    /// A drop: said once, then tried 1 s later, then after 2 s, 5 s, and every 10 s — never in a
    /// tight loop, however often the thread wakes.
    @Test func aDroppedSensorIsSaidOnceAndTriedAgainWithBackOff() throws {
        let rig = try Rig(radio: FakeRadio { $0.reachable = [Sensors.polar] }, paired: [Self.strap])
        rig.hub.start(at: 0)
        _ = rig.hub.step(at: 0)
        _ = rig.hub.step(at: 0.1)
        _ = rig.hub.step(at: 30.1)  // the link has held
        rig.radio.state.withLock { $0.reachable = [] }
        rig.radio.push(.disconnected(Sensors.polar))
        var attempts: [Double] = []
        var now = 1000.0
        _ = rig.hub.step(at: now)  // the drop
        let before = rig.radio.calls.count
        while now < 1060 {
            now += 0.05  // the thread woken 20 times a second, as a flood would
            _ = rig.hub.step(at: now)
            if rig.radio.calls.count > before + attempts.count { attempts.append(now) }
        }
        let gaps = zip(attempts.dropFirst(), attempts).map { ($0 - $1).rounded() }
        #expect(((attempts.first ?? 0) - 1000).rounded() == 1, "\(attempts)")
        #expect(gaps.prefix(4) == [2, 5, 10, 10], "\(gaps)")
        #expect(attempts.count == 8, "\(attempts)")  // 1001, 1003, 1008, then every 10 s
        #expect(rig.logged.all.filter { $0 == "runwayd: sensor lost: Polar H10 1A2B3C4D" }.count == 1)
        #expect(rig.noticed == [.connected(Self.strap), .lost(Self.strap)])
        // Back in range: connected at the next try, and the back-off starts over.
        rig.radio.state.withLock { $0.reachable = [Sensors.polar] }
        while rig.hub.links[0].isConnected == false, now < 1100 {
            now += 0.5
            _ = rig.hub.step(at: now)
        }
        // Not started over yet: the link has to hold first.
        #expect(rig.hub.links[0].isConnected && rig.hub.links[0].failures > 0)
        #expect(rig.logged.all.filter { $0 == "runwayd: sensor connected: Polar H10 1A2B3C4D" }.count == 2)
        // … and once it has held 30 s the back-off starts over, and it is told back.
        _ = rig.hub.step(at: now + 30)
        #expect(rig.hub.links[0].failures == 0)
        #expect(rig.noticed == [.connected(Self.strap), .lost(Self.strap), .connected(Self.strap)])
    }

    /// A sensor flapping at the edge of range: each short link is a failed attempt for the
    /// back-off (it grows: 1, 2, 5, 10 s), and it is not told back until a link holds 30 s.
    @Test func aFlappingSensorIsNotBackUntilItsLinkHolds() throws {
        let rig = try Rig(radio: FakeRadio { $0.reachable = [Sensors.polar] }, paired: [Self.strap])
        rig.hub.start(at: 0)
        _ = rig.hub.step(at: 0)
        _ = rig.hub.step(at: 0.1)
        _ = rig.hub.step(at: 30.1)
        var now = 30.1
        var waits: [Double] = []
        for _ in 0..<4 {
            rig.radio.push(.disconnected(Sensors.polar))  // up a moment, then gone again
            now += 0.1
            _ = rig.hub.step(at: now)
            let next = try #require(rig.hub.links[0].nextAttempt)
            waits.append((next - now).rounded())
            now = next
            _ = rig.hub.step(at: now)  // the connect asked …
            now += 0.1
            _ = rig.hub.step(at: now)  // … and up for a moment
        }
        #expect(waits == [1, 2, 5, 10], "\(waits)")
        #expect(rig.noticed.filter { $0 == .connected(Self.strap) }.count == 1, "\(rig.noticed)")
        _ = rig.hub.step(at: now + 31)
        #expect(rig.noticed.last == .connected(Self.strap) && rig.hub.links[0].failures == 0)
    }

    /// An hour away costs one attempt every 10 s: counted, not timed.
    @Test func aSensorLeftAtHomeCostsOneAttemptEveryTenSeconds() throws {
        let rig = try Rig(paired: [Self.strap])
        rig.hub.start(at: 0)
        var now = 0.0
        while now < 3600 {
            now += 0.25
            _ = rig.hub.step(at: now)
        }
        let attempts = rig.radio.calls.filter { $0.hasPrefix("connect") }.count
        // Each failure is heard a step (0.25 s here) after its attempt, and the 10 s run from it.
        #expect((345...361).contains(attempts), "\(attempts)")
        // The thread's next wake-up is the next attempt, not sooner.
        let deadline = try #require(rig.hub.deadline(at: now))
        #expect(deadline > now && deadline <= now + 10)
    }

    /// A sensor that vanishes while connecting, or a connect never answered: a failed attempt,
    /// not a loss (nothing was connected), and the next try waits its turn.
    @Test func aSensorThatVanishesMidConnectOrNeverAnswersIsAFailedAttempt() throws {
        let rig = try Rig(radio: FakeRadio { $0.reachable = [Sensors.polar] }, paired: [Self.strap])
        rig.hub.start(at: 0)
        _ = rig.hub.step(at: 0)  // connect asked; the fake's .connected is queued …
        rig.radio.state.withLock { $0.pending = [.disconnected(Sensors.polar)] }  // … but it vanished
        _ = rig.hub.step(at: 0.1)
        #expect(!rig.hub.links[0].isConnected && rig.hub.links[0].failures == 1)
        #expect(rig.noticed.isEmpty && !rig.logged.all.contains { $0.contains("sensor lost") })
        #expect(rig.hub.links[0].nextAttempt == 0.1 + 2)
        // Tried again at 2.1 and never answered (the fake drops the outcome): given up at 32.1.
        rig.radio.state.withLock { $0.reachable = [] }
        _ = rig.hub.step(at: 2.1)
        rig.radio.state.withLock { $0.pending.removeAll() }
        _ = rig.hub.step(at: 20)
        #expect(rig.hub.links[0].state == .connecting(since: 2.1))
        #expect(rig.hub.deadline(at: 20) == 32.1)
        _ = rig.hub.step(at: 32.1)
        #expect(rig.hub.links[0].failures == 2 && rig.hub.links[0].nextAttempt == 32.1 + 5)
    }

    /// Before the first GPS fix a live sensor has no last-seen time, but its age is known.
    @Test func theLinksStatusSaysHowLongAgoItWasSeenWithoutGPSTime() throws {
        let rig = try Rig(radio: FakeRadio { $0.reachable = [Sensors.polar] }, paired: [Self.strap])
        rig.hub.start(at: 0)
        _ = rig.hub.step(at: 0)
        _ = rig.hub.step(at: 0.1)
        rig.radio.push(.reading(Sensors.polar, Sensors.heartRate(72)))
        _ = rig.hub.step(at: 10)
        let status = rig.hub.links[0].status(now: 12) { _ in nil }
        #expect(status.lastSeen == nil && status.lastSeenAge == 2)
        #expect(status.json.rendered().contains(#""last_seen":null,"last_seen_age_s":2"#))
    }

    /// A heart rate older than 5 s is not current, though the link is up: the status has none.
    @Test func aStaleHeartRateIsNotInTheStatus() throws {
        let rig = try Rig(radio: FakeRadio { $0.reachable = [Sensors.polar] }, paired: [Self.strap])
        rig.hub.start(at: 0)
        _ = rig.hub.step(at: 0)
        _ = rig.hub.step(at: 0.1)
        rig.radio.push(.reading(Sensors.polar, Sensors.heartRate(72)))
        _ = rig.hub.step(at: 10)
        #expect(rig.hub.links[0].status(now: 14) { _ in nil }.heartRate == 72)
        let stale = rig.hub.links[0].status(now: 16) { _ in nil }
        #expect(stale.connected == true && stale.heartRate == nil && stale.contact == nil)
        #expect(stale.lastSeenAge == 6)
    }

    @Test func garbageIsLoggedOncePerBurstAndTheLinkStays() throws {
        let rig = try Rig(radio: FakeRadio { $0.reachable = [Sensors.polar] }, paired: [Self.strap])
        rig.hub.start(at: 0)
        _ = rig.hub.step(at: 0)
        _ = rig.hub.step(at: 0.1)
        for i in 0..<200 {
            rig.radio.push(
                .failed(Sensors.polar, .malformed(characteristic: 0x2A37, reason: "flags say 16 bit, 1 byte"))
            )
            _ = rig.hub.step(at: 1 + Double(i) * 0.01)
        }
        rig.radio.push(.reading(Sensors.polar, Sensors.heartRate(80)))
        #expect(rig.hub.step(at: 4).map(\.value) == [80])
        #expect(rig.logged.all.filter { $0.contains("malformed") }.count == 1)
        // The burst ends after 10 s of quiet, and its count is said then.
        let lastGarbage = 1 + Double(199) * 0.01
        #expect(rig.hub.deadline(at: 4) == lastGarbage + SensorHub.malformedBurstGap)
        _ = rig.hub.step(at: 13)
        let lines = rig.logged.all.filter { $0.contains("malformed") }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.last?.contains("199 more malformed payloads") == true)
        #expect(rig.hub.links[0].isConnected)
    }

    /// A sensor sending a bad payload after every good one (the radio reports the first bad
    /// after each good): one burst, one line, not a warning per packet.
    @Test func garbageAfterEveryGoodReadingIsOneBurst() throws {
        let rig = try Rig(radio: FakeRadio { $0.reachable = [Sensors.polar] }, paired: [Self.strap])
        rig.hub.start(at: 0)
        _ = rig.hub.step(at: 0)
        _ = rig.hub.step(at: 0.1)
        for i in 0..<100 {
            rig.radio.push(
                .reading(Sensors.polar, Sensors.heartRate(80)),
                .failed(Sensors.polar, .malformed(characteristic: 0x2A37, reason: "an odd RR byte")))
            _ = rig.hub.step(at: 1 + Double(i) * 0.5)
        }
        let lines = rig.logged.all.filter { $0.contains("malformed") }
        #expect(lines.count == 1, "\(lines.count) lines")
    }

    @Test func scanThenPairByNameStoresTheChoiceAndASecondStrapReplacesTheFirst() throws {
        let rig = try Rig(
            radio: FakeRadio {
                $0.devices = Sensors.near
                $0.pairing = [Sensors.polar: .paired(Sensors.polar), Sensors.tickr: .paired(Sensors.tickr)]
                $0.reachable = [Sensors.polar, Sensors.tickr]
            })
        rig.hub.start(at: 0)
        guard case .scanned(let near, let paired)? = rig.ask(.scan(seconds: 5), at: 0)?.0 else {
            Issue.record("no scan")
            return
        }
        #expect(near.count == 3 && paired.isEmpty)
        // The devices are read before the scan stops (stopping it takes BlueZ's RSSIs away).
        #expect(rig.radio.calls.prefix(3) == ["scan on", "devices", "scan off"])
        guard case .paired(let tickr, let none)? = rig.ask(.pair("tickr"), at: 10)?.0 else {
            Issue.record("not paired")
            return
        }
        #expect(tickr.address == Sensors.tickr && none.isEmpty)
        guard case .paired(let polar, let replaced)? = rig.ask(.pair("A0:9E:1A:12:34:56"), at: 20)?.0 else {
            Issue.record("not paired")
            return
        }
        #expect(polar.name == "Polar H10 1A2B3C4D" && replaced.map(\.address) == [Sensors.tickr])
        #expect(rig.radio.calls.contains("forget C8:FD:19:AA:BB:CC"))
        #expect(rig.hub.links.map(\.sensor) == [polar])
        // Stored: a restart reads the same choice.
        #expect(rig.store.load() == SensorStore.Loaded(sensors: [polar], problem: nil))
        guard case .forgotten(let gone)? = rig.ask(.forget("polar h10 1a2b3c4d"), at: 30)?.0 else {
            Issue.record("not forgotten")
            return
        }
        #expect(gone == polar && rig.store.load().sensors.isEmpty)
    }

    /// Pairing a sensor whose link is failing: the link's connect failure is the link's, not
    /// the pairing's answer; the pairing ends with its own outcome.
    @Test func aConnectFailureIsNotThePairingsAnswer() throws {
        let rig = try Rig(radio: FakeRadio { $0.devices = Sensors.near }, paired: [Self.strap])
        rig.hub.start(at: 0)
        _ = rig.hub.step(at: 0)  // the connect asked; its failure (not reachable) is queued
        var answer: SensorAnswer?
        rig.hub.handle(.pair("A0:9E:1A:12:34:56"), at: 0.05) { answer = $0 }
        _ = rig.hub.step(at: 0.1)
        #expect(answer == nil, "\(String(describing: answer))")
        #expect(rig.hub.links[0].failures == 1)
        rig.radio.push(.paired(Sensors.polar))
        _ = rig.hub.step(at: 0.2)
        guard case .paired(let sensor, _)? = answer else {
            Issue.record("\(String(describing: answer))")
            return
        }
        #expect(sensor.address == Sensors.polar)
    }

    /// A pairing whose list cannot be written changes nothing: the old strap stays paired,
    /// connected and known to BlueZ, and the refusal says nothing was changed.
    @Test func aPairingThatCannotBeStoredChangesNothing() throws {
        let tickr = PairedSensor(address: Sensors.tickr, name: "TICKR", kinds: [.heartRate])
        let rig = try Rig(
            radio: FakeRadio {
                $0.devices = Sensors.near
                $0.pairing = [Sensors.polar: .paired(Sensors.polar)]
                $0.reachable = [Sensors.tickr]
            }, paired: [tickr])
        rig.hub.start(at: 0)
        _ = rig.hub.step(at: 0)
        _ = rig.hub.step(at: 0.1)
        // The temporary file's name taken by a folder: the save fails (for root too).
        try FileManager.default.createDirectory(
            atPath: rig.store.path + ".partial", withIntermediateDirectories: false)
        guard case .refused(let why)? = rig.ask(.pair("A0:9E:1A:12:34:56"), at: 1)?.0 else {
            Issue.record("not refused")
            return
        }
        #expect(why == .notStored(rig.store.path))
        #expect(why.description.contains("nothing was changed"))
        #expect(rig.hub.links.map(\.sensor) == [tickr] && rig.hub.links[0].isConnected)
        #expect(!rig.radio.calls.contains { $0.hasSuffix(Sensors.tickr.text) && !$0.hasPrefix("connect") })
        #expect(rig.store.load().sensors == [tickr])
        // Forgetting is stored first too.
        guard case .refused(.notStored)? = rig.ask(.forget("TICKR"), at: 2)?.0 else {
            Issue.record("not refused")
            return
        }
        #expect(rig.hub.links.map(\.sensor) == [tickr])
        #expect(!rig.radio.calls.contains("forget C8:FD:19:AA:BB:CC"))
    }

    /// The radio's Pair call and the hub's pairing give up at the same time; BlueZ already
    /// pairing the device is a refusal of its own.
    @Test func aPairingAlreadyUnderWayIsRefusedAsSuch() throws {
        #expect(BlueZRadio.pairTimeout == Double(ControlRequest.pairSeconds))
        let rig = try Rig(
            radio: FakeRadio {
                $0.devices = Sensors.near
                $0.pairing = [Sensors.polar: .pairFailed(Sensors.polar, .alreadyPairing(name: "HRM"))]
            })
        rig.hub.start(at: 0)
        guard case .refused(let why)? = rig.ask(.pair("A0:9E:1A:12:34:56"), at: 0)?.0 else {
            Issue.record("not refused")
            return
        }
        #expect(why == .alreadyPairing("Polar H10 1A2B3C4D"))
    }

    @Test func whatCannotBePairedIsSaidByItsCause() throws {
        let twins = [
            Sensors.device(Sensors.polar, "HRM", .heartRate),
            Sensors.device(Sensors.tickr, "HRM", .heartRate),
            SensorDevice(
                address: Sensors.stryd, name: "Buds", kinds: [], rssi: -40, paired: false, connected: false),
        ]
        let rig = try Rig(
            radio: FakeRadio {
                $0.devices = twins
                $0.pairing = [
                    Sensors.polar: .pairFailed(
                        Sensors.polar,
                        .pairingRefused(name: "HRM", message: "org.bluez.Error.AuthenticationRejected"))
                ]
            })
        rig.hub.start(at: 0)
        func refusal(_ request: SensorRequest, at time: Double) -> SensorRefusal? {
            guard case .refused(let why)? = rig.ask(request, at: time)?.0 else { return nil }
            return why
        }
        #expect(refusal(.pair("HRM"), at: 0) == .ambiguousName("HRM"))
        #expect(refusal(.pair("Polar H7"), at: 1) == .unknownSensor("Polar H7"))
        #expect(refusal(.pair("Buds"), at: 2) == .notASensor("Buds"))
        #expect(refusal(.forget("Stryd"), at: 3) == .unknownSensor("Stryd"))
        #expect(refusal(.pair("A0:9E:1A:12:34:56"), at: 4) == .pairingRefused("HRM"))
        // A sensor that never answers: the pairing gives up after its 30 s, and says so.
        let (answer, at) = try #require(rig.ask(.pair("C8:FD:19:AA:BB:CC"), at: 100))
        guard case .refused(.pairingTimedOut("HRM")) = answer else {
            Issue.record("\(answer)")
            return
        }
        #expect(at >= 130 && at < 131)
        #expect(rig.store.load().sensors.isEmpty)
    }

    @Test func noBlueZNoAdapterAnAdapterOffAndABusyScanAreRefusedAsSuch() throws {
        let radio = FakeRadio { $0.adapter = .noBlueZ }
        let rig = try Rig(radio: radio, paired: [Self.strap])
        rig.hub.start(at: 0)
        func refusal(_ request: SensorRequest, at time: Double) -> SensorRefusal? {
            var answer: SensorAnswer?
            rig.hub.handle(request, at: time) { answer = $0 }
            guard case .refused(let why)? = answer else { return nil }
            return why
        }
        #expect(refusal(.scan(seconds: 5), at: 0) == .blueZNotRunning)
        _ = rig.hub.step(at: 5)
        #expect(!radio.calls.contains { $0.hasPrefix("connect") }, "no connect without BlueZ")
        radio.push(.adapter(.noAdapter))
        _ = rig.hub.step(at: 6)
        #expect(refusal(.pair("x"), at: 6) == .noAdapter)
        radio.push(.adapter(.poweredOff))
        _ = rig.hub.step(at: 7)
        #expect(refusal(.scan(seconds: 5), at: 7) == .adapterOff)
        // The adapter comes: the paired sensor is tried at once; a scan runs, a second waits.
        radio.push(.adapter(.ready(address: nil)))
        _ = rig.hub.step(at: 8)
        #expect(radio.calls.contains("connect A0:9E:1A:12:34:56"))
        rig.hub.handle(.scan(seconds: 10), at: 8) { _ in }
        #expect(refusal(.scan(seconds: 5), at: 9) == .busyScanning)
        #expect(refusal(.pair("Stryd"), at: 9) == .busyScanning)
        // The listing is always answered, whatever the radio.
        guard
            case .list(let links) = { () -> SensorAnswer? in
                var answer: SensorAnswer?
                rig.hub.handle(.list, at: 9) { answer = $0 }
                return answer
            }()
        else {
            Issue.record("no list")
            return
        }
        #expect(links.map(\.sensor) == [Self.strap])
    }

    /// The bus connection lost under a working radio: the radio is dropped (never polled again),
    /// the link is down, and a new radio is made 10 s later.
    @Test func aRadioWhoseBusIsLostIsReplaced() throws {
        let made = Locked(0)
        let radio = FakeRadio { $0.reachable = [Sensors.polar] }
        let folder = NSTemporaryDirectory() + "rw-sensors-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = SensorStore(logbookDirectory: folder)
        try store.save([Self.strap])
        let logged = Lines()
        let hub = SensorHub(
            radio: {
                made.withLock { $0 += 1 }
                return radio
            }, store: store, log: DaemonLog(toJournal: false) { logged.append($0) })
        hub.start(at: 0)
        _ = hub.step(at: 0)
        _ = hub.step(at: 0.1)
        #expect(hub.links[0].isConnected)
        radio.state.withLock { $0.processError = .busUnavailable(errno: ECONNRESET) }
        _ = hub.step(at: 1)
        #expect(hub.radio == nil)
        #expect(!hub.links[0].isConnected)
        #expect(hub.adapter == .noBlueZ)
        #expect(hub.deadline(at: 1) == 11)
        _ = hub.step(at: 11)
        #expect(made.withLock { $0 } == 2 && hub.radio != nil)
    }

    /// The radio's state for status: ready, or what is wrong with the adapter or BlueZ.
    @Test func theRadiosStateIsForTheStatus() throws {
        let radio = FakeRadio { $0.adapter = .poweredOff }
        let rig = try Rig(radio: radio)
        rig.hub.start(at: 0)
        #expect(rig.hub.bluetooth.state == .poweredOff)
        #expect(rig.hub.bluetooth.message?.contains("bluetoothctl power on") == true)
        radio.push(.adapter(.noBlueZ))
        _ = rig.hub.step(at: 1)
        #expect(rig.hub.bluetooth.state == .notRunning)
        radio.push(.adapter(.ready(address: nil)))
        _ = rig.hub.step(at: 2)
        #expect(rig.hub.bluetooth == ControlBluetooth(state: .ready, message: nil))
    }

    /// BlueZ there but refusing runwayd (or not answering) is said as such, not as "not running".
    @Test func aBlueZThatRefusesUsIsNotCalledNotRunning() throws {
        let radio = FakeRadio {
            $0.adapter = .noBlueZ
            $0.unavailable = .permissionDenied("Rejected send message")
        }
        let rig = try Rig(radio: radio)
        rig.hub.start(at: 0)
        var answer: SensorAnswer?
        rig.hub.handle(.scan(seconds: 5), at: 0) { answer = $0 }
        guard case .refused(.permissionDenied)? = answer else {
            Issue.record("\(String(describing: answer))")
            return
        }
        #expect(rig.logged.all.contains { $0.contains("group bluetooth") }, "\(rig.logged.all)")
        #expect(!rig.logged.all.contains { $0.contains("BlueZ is not running") }, "\(rig.logged.all)")
        radio.state.withLock { $0.unavailable = .timedOut("GetManagedObjects") }
        rig.hub.handle(.pair("Stryd"), at: 1) { answer = $0 }
        guard case .refused(.radioFailed(let words))? = answer else {
            Issue.record("\(String(describing: answer))")
            return
        }
        #expect(words.contains("did not answer in time"))
    }

    @Test func aRadioThatCannotBeMadeIsTriedAgainEveryTenSeconds() throws {
        let made = Locked(0)
        let folder = NSTemporaryDirectory() + "rw-sensors-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let logged = Lines()
        let hub = SensorHub(
            radio: {
                made.withLock { $0 += 1 }
                throw BluetoothError.busUnavailable(errno: ENOENT)
            }, store: SensorStore(logbookDirectory: folder),
            log: DaemonLog(toJournal: false) { logged.append($0) })
        hub.start(at: 0)
        var answer: SensorAnswer?
        hub.handle(.scan(seconds: 3), at: 1) { answer = $0 }
        guard case .refused(.busUnavailable)? = answer else {
            Issue.record("\(String(describing: answer))")
            return
        }
        for t in stride(from: 0.0, through: 35, by: 0.5) { _ = hub.step(at: t) }
        #expect(made.withLock { $0 } == 4)  // at 0, 10, 20, 30
        #expect(logged.all.filter { $0.contains("D-Bus cannot be reached") }.count == 1, "\(logged.all)")
    }
}

@Suite("Sensors: the paired list in runwayd's state")
struct SensorStoreTests {
    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "rw-store-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theListSurvivesARestartAndNoFileIsNonePaired() throws {
        let store = SensorStore(logbookDirectory: try Self.folder())
        #expect(store.load() == SensorStore.Loaded(sensors: [], problem: nil))
        let both = [SensorHubTests.strap, SensorHubTests.pod]
        try store.save(both)
        #expect(SensorStore(path: store.path).load() == SensorStore.Loaded(sensors: both, problem: nil))
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text.hasPrefix(#"{"version":1,"sensors":[{"address":"A0:9E:1A:12:34:56","name":"Polar H10"#))
        #expect(!FileManager.default.fileExists(atPath: store.path + ".partial"))
    }

    @Test(arguments: [
        "not json", #"{"version":2,"sensors":[]}"#,
        #"{"version":1,"sensors":[{"address":"nope","kinds":["cadence"]}]}"#,
        #"{"version":1,"sensors":[{"address":"A0:9E:1A:12:34:56","kinds":["heart_rate","ecg"]}]}"#,
        #"{"version":1,"sensors":[{"address":"A0:9E:1A:12:34:56","kinds":["heart_rate"]},{"address":"C8:FD:19:AA:BB:CC","kinds":["heart_rate"]}]}"#,
        String(repeating: " ", count: 70_000),
    ])
    func aCorruptFileIsSetAsideAndReadAsNonePaired(_ content: String) throws {
        let store = SensorStore(logbookDirectory: try Self.folder())
        try content.write(toFile: store.path, atomically: false, encoding: .utf8)
        let loaded = store.load()
        #expect(loaded.sensors.isEmpty)
        #expect(
            loaded.problem?.contains("is corrupt") == true && loaded.problem?.contains(".corrupt") == true)
        #expect(!FileManager.default.fileExists(atPath: store.path))
        let folder = (store.path as NSString).deletingLastPathComponent
        let aside = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.contains(".corrupt-") })
        #expect(loaded.problem?.contains(aside) == true)
        #expect(try String(contentsOfFile: folder + "/" + aside, encoding: .utf8) == content)
        // … and pairing again writes a good file.
        try store.save([SensorHubTests.pod])
        #expect(store.load().sensors == [SensorHubTests.pod])
    }

    /// A second corrupt file is set aside beside the first, never over it.
    @Test func aSecondCorruptFileDoesNotReplaceTheFirst() throws {
        let store = SensorStore(logbookDirectory: try Self.folder())
        try "first".write(toFile: store.path, atomically: false, encoding: .utf8)
        _ = store.load()
        try "second".write(toFile: store.path, atomically: false, encoding: .utf8)
        _ = store.load()
        let folder = (store.path as NSString).deletingLastPathComponent
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.contains(".corrupt")
        }
        let kept = try aside.map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
        #expect(Set(kept) == ["first", "second"], "\(aside)")
    }

    /// A list that is there but cannot be read (here a symbolic link, which runwayd does not
    /// follow; EACCES and EIO alike) is never written over: pairing is refused, and says why.
    @Test func anUnreadableListIsNotWrittenOver() throws {
        let folder = try Self.folder()
        let store = SensorStore(logbookDirectory: folder)
        try #"{"version":1,"sensors":[]}"#.write(
            toFile: folder + "/real.json", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: store.path, withDestinationPath: folder + "/real.json")
        #expect(store.load().unreadable)
        let rig = try SensorHubTests.Rig(
            radio: FakeRadio {
                $0.devices = Sensors.near
                $0.pairing = [Sensors.polar: .paired(Sensors.polar)]
            }, folder: folder)
        rig.hub.start(at: 0)
        guard case .refused(let why)? = rig.ask(.pair("A0:9E:1A:12:34:56"), at: 1)?.0 else {
            Issue.record("not refused")
            return
        }
        #expect(why == .storeUnreadable(store.path))
        #expect(!rig.radio.calls.contains("pair A0:9E:1A:12:34:56"))
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: store.path) == folder + "/real.json")
    }

    @Test func aFolderThatCannotBeWrittenIsAnError() throws {
        let store = SensorStore(path: "/proc/runway-no-such/sensors.json")
        #expect(throws: SensorStore.WriteError.self) { try store.save([SensorHubTests.pod]) }
    }
}
