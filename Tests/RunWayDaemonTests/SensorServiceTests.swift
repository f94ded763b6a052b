import Foundation
import RunWayBluetooth
import RunWayCLI
import RunWayControl
import RunWayCore
import RunWayHardware
import RunWaySystem
import RunWayTestSupport
import Synchronization
import Testing

@testable import RunWayDaemon

/// The sensor service in-process over the real control socket, driven by `runway sensors …` as
/// the runner types it, with a FakeRadio. Waits are for conditions, each bounded generously (a
/// loaded 2-core machine): nothing is judged by how long it took.
@Suite("Sensors end to end: the socket, the CLI, the engine, the annunciator", .serialized)
struct SensorServiceTests {
    final class Board: Sendable {
        let radio: FakeRadio
        let folder: String
        let socket: String
        let logged = Lines()
        let heard = Lines()
        let flying = InFlightWatch()
        let bodies = BodyTap()
        /// Seconds added to the sensor thread's monotonic clock (a link held 30 s, at once).
        let skew = Locked(0.0)
        let engine: FlightEngine
        let service: SensorService
        private let tasks: [Task<Void, any Error>]

        init(radio: FakeRadio, folder: String? = nil) async throws {
            self.radio = radio
            self.folder = folder ?? NSTemporaryDirectory() + "rw-ble-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: self.folder, withIntermediateDirectories: true)
            socket = NSTemporaryDirectory() + "rw-ble-\(UUID().uuidString.prefix(8)).sock"
            let logged = logged
            let log = DaemonLog(toJournal: false) { logged.append($0) }
            let flying = flying
            let executor = ThreadExecutor(name: "sensor test engine")
            engine = FlightEngine(on: executor, observers: [flying, bodies])
            // The board's GPS axis: monotonic time moved to just after the flights below start.
            let base = MonotonicClock.seconds
            let gps: @Sendable (MonotonicInstant) async -> Double? = { 200 + $0.seconds - base }
            service = SensorService(
                radio: { radio }, store: SensorStore(logbookDirectory: self.folder), engine: engine, gps: gps,
                annunciator: Annunciator(driver: BuzzerDriver(), log: log), flying: flying, log: log,
                clock: { [skew] in MonotonicClock.seconds + skew.withLock { $0 } })
            var control = SessionControl(
                engine: engine, defaultMission: nil, logbookDirectory: self.folder,
                now: { await gps(.now) }, battery: { nil })
            control.sensors = service
            let answering = control
            let server = ControlServer(path: socket) { await answering.answer($0) }
            let service = service
            tasks = [Task { try await service.run() }, Task { try await server.run() }]
            for _ in 0..<2000 where !FileManager.default.fileExists(atPath: socket) {
                try await Task.sleep(for: .milliseconds(5))
            }
        }

        /// `runway ARGS` against this board's socket, the built executable as the runner runs it
        /// (its client blocks, so off the cooperative pool): status, standard output, standard error.
        func runway(_ arguments: String...) async -> (Int32, String, String) {
            let executable = DaemonEndToEndTests.root.appendingPathComponent(".build/debug/runway").path
            let all = arguments + ["--socket", socket]
            guard let output = try? await offPool({ try runToEnd(executable, all) }) else {
                return (-1, "", "")
            }
            func trimmed(_ text: String) -> String { text.hasSuffix("\n") ? String(text.dropLast()) : text }
            return (output.status, trimmed(output.stdout), trimmed(output.stderr))
        }

        /// runwayd's status, asked off the pool.
        func status() async throws -> ControlResponse {
            let socket = socket
            return try await offPool { try ControlClient(path: socket).request(.status) }
        }

        /// Waits (at most 20 s, checking every 20 ms) for `condition`.
        func until(_ condition: () async -> Bool) async -> Bool {
            for _ in 0..<1000 {
                if await condition() { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return false
        }

        func stop() async {
            for task in tasks.reversed() {
                task.cancel()
                _ = try? await task.value
            }
            await engine.close()
        }
    }

    /// The body samples the engine was given.
    final class BodyTap: FlightObserver, Sendable {
        private let seen = Mutex<[BodySample]>([])
        var all: [BodySample] { seen.withLock { $0 } }
        func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
            if case .flew(.body(let body), _) = event { seen.withLock { $0.append(body) } }
        }
    }

    static func radio() -> FakeRadio {
        FakeRadio {
            $0.devices = Sensors.near
            $0.pairing = [Sensors.polar: .paired(Sensors.polar)]
            $0.reachable = [Sensors.polar]
        }
    }

    @Test func scanPairAFlightWithADropAndARestartThroughTheCLI() async throws {
        let board = try await Board(radio: Self.radio())
        let (scanned, text, scanErr) = await board.runway("sensors", "scan", "--seconds", "1")
        #expect(scanned == 0, "\(scanErr)")
        // The strongest first; TICKR (-80 dBm) last.
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(text)")
        #expect(lines.first == "A0:9E:1A:12:34:56  heart rate   Polar H10 1A2B3C4D        -48 dBm", "\(text)")
        #expect(
            lines.dropFirst().first == "F4:12:FA:00:01:02  footpod      Stryd                     -71 dBm",
            "\(text)")
        let (_, json, _) = await board.runway("sensors", "scan", "--seconds", "1", "--json")
        #expect(
            json.hasPrefix(
                #"[{"address":"A0:9E:1A:12:34:56","name":"Polar H10 1A2B3C4D","kinds":["heart_rate"],"rssi":-48,"paired":false}"#
            ), "\(json)")
        let (paired, said, _) = await board.runway("sensors", "pair", "polar h10 1a2b3c4d")
        #expect(paired == 0)
        #expect(
            said
                == "paired Polar H10 1A2B3C4D (A0:9E:1A:12:34:56) as the heart rate sensor; runwayd connects to it now"
        )
        #expect(await board.until { board.service.links.first?.isConnected == true })
        #expect(board.logged.all.contains("runwayd: sensor connected: Polar H10 1A2B3C4D"))

        // A flight: the strap's readings reach the engine, and its average.
        await board.engine.handle(.start(at: 100, mission: nil, countdown: false))
        await board.engine.handle(.tick(101))
        #expect(await board.until { board.flying.isFlying })
        #expect(
            await board.until {
                board.radio.push(.reading(Sensors.polar, Sensors.heartRate(150)))
                return await board.engine.pfd.heartRate == 150
            })
        let (_, list, _) = await board.runway("sensors", "list", "--json")
        #expect(list.contains(#""connected":true,"battery_percent":null,"heart_rate":150"#), "\(list)")
        let status = try await board.status()
        guard case .ok(let outcome) = status, let sensors = outcome.status?.sensors else {
            Issue.record("no sensors in status: \(status)")
            return
        }
        #expect(sensors.map(\.address) == ["A0:9E:1A:12:34:56"] && sensors[0].connected == true)

        // Out of range mid-run: said once (BlueZ may say it twice), the flight goes on; back in range.
        board.radio.state.withLock { $0.reachable = [] }
        board.radio.push(.disconnected(Sensors.polar), .disconnected(Sensors.polar))
        #expect(await board.until { board.logged.all.contains("runwayd: callout: sensor lost") })
        #expect(await board.engine.isFlying)
        board.radio.state.withLock { $0.reachable = [Sensors.polar] }
        #expect(await board.until { board.logged.all.filter { $0.contains("sensor connected") }.count == 2 })
        // "Back" once the link has held 30 s (the thread's clock moved on; a battery reading wakes it).
        #expect(!board.logged.all.contains("runwayd: callout: sensor back"))
        board.skew.withLock { $0 += 31 }
        #expect(
            await board.until {
                board.radio.push(.reading(Sensors.polar, .battery(80)))
                return board.logged.all.contains("runwayd: callout: sensor back")
            })
        #expect(board.logged.all.filter { $0 == "runwayd: sensor lost: Polar H10 1A2B3C4D" }.count == 1)
        #expect(board.logged.all.filter { $0 == "runwayd: callout: sensor lost" }.count == 1)
        let landed = await board.engine.handle(.end(at: 400, sentAt: nil))
        guard
            case .ended(.landed(let flight))? = landed.first(where: {
                if case .ended = $0 { true } else { false }
            })
        else {
            Issue.record("not landed: \(landed)")
            return
        }
        #expect(flight.averageHeartRate == 150)
        await board.stop()

        // A restart: the pairing is runwayd's state, read back.
        let again = try await Board(radio: Self.radio(), folder: board.folder)
        let (_, after, _) = await again.runway("sensors", "list")
        #expect(after.hasPrefix("A0:9E:1A:12:34:56  heart rate   Polar H10 1A2B3C4D        "), "\(after)")
        let (forgot, gone, _) = await again.runway("sensors", "forget", "A0:9E:1A:12:34:56")
        #expect(forgot == 0 && gone == "forgot Polar H10 1A2B3C4D (A0:9E:1A:12:34:56)")
        let (_, none, _) = await again.runway("sensors", "list")
        #expect(none == "no sensor paired: runway sensors scan, then runway sensors pair ADDRESS")
        await again.stop()
    }

    /// What stands in the way reaches the runner's terminal in words, and nothing hangs.
    @Test func blueZNotRunningNoAdapterAndARefusedPairingSaySoAtTheCLI() async throws {
        let board = try await Board(
            radio: FakeRadio {
                $0.adapter = .noBlueZ
                $0.devices = Sensors.near
                $0.pairing = [
                    Sensors.polar: .pairFailed(
                        Sensors.polar,
                        .pairingRefused(
                            name: "Polar H10 1A2B3C4D", message: "org.bluez.Error.AuthenticationFailed"))
                ]
            })
        let (status, _, err) = await board.runway("sensors", "scan", "--seconds", "1")
        #expect(status == 1)
        #expect(
            err.hasSuffix(
                "\nrunway: runwayd refused: BlueZ is not running (no org.bluez on the system bus): systemctl start bluetooth"
            ), "\(err)")
        board.radio.push(.adapter(.noAdapter))
        #expect(
            await board.until {
                await board.runway("sensors", "pair", "Stryd").2
                    == "runway: runwayd refused: no Bluetooth adapter: plug in a dongle, or check rfkill and the Pi's dtoverlay"
            })
        board.radio.push(.adapter(.ready(address: nil)))
        #expect(
            await board.until {
                await board.runway("sensors", "pair", "Polar H10 1A2B3C4D").2
                    == "runway: runwayd refused: pairing with Polar H10 1A2B3C4D was refused: wake the sensor (wet the strap, or take a few steps) and try again"
            })
        #expect(board.logged.all.contains { $0.contains("org.bluez.Error.AuthenticationFailed") })
        let (_, unknown, why) = await board.runway("sensors", "forget", "Polar H7")
        #expect(unknown.isEmpty && why.contains("no sensor \"Polar H7\" is known"))
        await board.stop()
        // runwayd gone: the same words as every control command.
        let (gone, _, missing) = await board.runway("sensors", "list")
        #expect(gone == 1 && missing.contains("runwayd is not running"), "\(missing)")
    }

    /// Without a sensor service, status's `bluetooth` says why (the checklist's reason).
    @Test func noSensorServiceIsSaidInTheStatus() async throws {
        var control = SessionControl(
            engine: TestEngine().engine, defaultMission: nil, logbookDirectory: nil, now: { nil },
            battery: { nil })
        control.sensorsAbsent = .notOnThisBoard
        let board = await control.board()
        #expect(board.sensors == nil && board.bluetooth?.state == .notOnThisBoard)
        #expect(board.bluetooth?.message == SensorRefusal.notOnThisBoard.description)
    }

    /// A sensor flapping in flight is said lost once and back once; a new flight says anew.
    @Test func aLossIsSaidOncePerFlight() {
        let logged = Lines()
        let log = DaemonLog(toJournal: false) { logged.append($0) }
        let flying = InFlightWatch()
        let announcer = SensorAnnouncer(
            annunciator: Annunciator(driver: BuzzerDriver(), log: log), flying: flying)
        let strap = SensorHubTests.strap
        flying.set(flying: true)
        for _ in 0..<3 {
            announcer.tell(.lost(strap))
            announcer.tell(.connected(strap))
        }
        #expect(logged.all.filter { $0 == "runwayd: callout: sensor lost" }.count == 1)
        #expect(logged.all.filter { $0 == "runwayd: callout: sensor back" }.count == 1)
        // Landed, and a new flight: what was said ended with the last one.
        flying.set(flying: false)
        flying.set(flying: true)
        announcer.tell(.lost(strap))
        #expect(logged.all.filter { $0 == "runwayd: callout: sensor lost" }.count == 2)
    }

    /// A footpod's speed and total distance reach the engine with its cadence (the raw log
    /// keeps them), not only the cadence.
    @Test func aFootpodsSpeedAndDistanceReachTheEngine() async throws {
        let folder = NSTemporaryDirectory() + "rw-ble-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try SensorStore(logbookDirectory: folder).save([SensorHubTests.pod])
        let board = try await Board(radio: FakeRadio { $0.reachable = [Sensors.stryd] }, folder: folder)
        #expect(await board.until { board.service.links.first?.isConnected == true })
        let step = RSCMeasurement(
            speed: 3.5, cadence: 176, strideLength: 1.2, totalDistance: 1234.5, isRunning: true)
        #expect(
            await board.until {
                board.radio.push(.reading(Sensors.stryd, .runningSpeedCadence(step)))
                return !board.bodies.all.isEmpty
            })
        let body = try #require(board.bodies.all.first)
        #expect(body.cadence == 176 && body.footpodSpeed == 3.5 && body.footpodDistance == 1234.5, "\(body)")
        await board.stop()
    }

    /// A scan holds up nobody: status is answered while one runs.
    @Test func aScanDoesNotHoldUpTheStatus() async throws {
        let board = try await Board(radio: Self.radio())
        let scan = Task { await board.runway("sensors", "scan", "--seconds", "5") }
        #expect(await board.until { board.radio.calls.contains("scan on") })
        let began = MonotonicClock.seconds
        guard case .ok(let outcome) = try await board.status() else {
            Issue.record("status refused")
            return
        }
        let took = MonotonicClock.seconds - began
        #expect(
            outcome.status != nil && !board.radio.calls.contains("scan off"),
            "status waited \(took) s for the scan")
        #expect(await scan.value.0 == 0)
        await board.stop()
    }
}
