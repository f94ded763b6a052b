import Foundation
import RunWayCLI
import RunWayCore
import RunWayStore
import RunWayTestSupport
import Testing

/// runwayd on the real board's path: fixes from a real gpsd (gpsfake replaying a simulated
/// walk), the BMP280 driver on its register-level simulation (`--simulate barometer`: a hill),
/// both mapped onto the engine's time by the board's time base. gpsd dies and comes back, the
/// daemon is stopped and killed mid-flight: the flight goes on each time.
@Suite("runwayd with a real gpsd", .serialized)
struct DaemonRealBoardTests {
    /// A directory with a configuration naming gpsd's port and the logbook.
    struct Board {
        let directory: String
        let port: UInt16
        var socket: String { directory + "/control.sock" }
        var logbook: String { directory + "/logbook.sqlite" }
        var config: String { directory + "/runway.json" }

        init() throws {
            directory = NSTemporaryDirectory() + "runwayd-real-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            port = try GPSFake.freePort()
            try #"{"gpsd": "127.0.0.1:\#(port)", "logbook": "\#(logbook)"}"#
                .write(toFile: config, atomically: true, encoding: .utf8)
        }

        /// The walker's NMEA, split in `parts` at epoch boundaries, each written with a lead-in
        /// (gpsd drops what arrives before a client watches; the lead-in has no fix and no time).
        func walk(parts: Int, leadIns: Int) throws -> [String] {
            let lines = try SimulateCommand.lines(scenario: "walker", format: .nmea)
            let epochs = lines.indices.filter { lines[$0].hasPrefix("$GPRMC") }
            return try (0..<parts).map { k in
                let from = epochs[epochs.count * k / parts]
                let to = k == parts - 1 ? lines.count : epochs[epochs.count * (k + 1) / parts]
                let path = directory + "/walk-\(k).nmea"
                let text =
                    String(repeating: GPSFake.leadIn, count: leadIns - 1)
                    + lines[from..<to].joined(separator: "\r\n") + "\r\n"
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                return path
            }
        }

        /// A file for the daemons' log, and a handle to write it.
        func logFile() throws -> (path: String, handle: FileHandle) {
            let path = directory + "/runwayd.log"
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return (path, try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
        }

        /// Starts runwayd; `errors` collects its log. `environment` adds to the test's own
        /// (DBUS_SYSTEM_BUS_ADDRESS: a private bus with the mock BlueZ in the system bus's place).
        func daemon(errors: FileHandle, environment: [String: String] = [:]) throws -> Process {
            try? FileManager.default.removeItem(atPath: socket)
            let daemon = Process()
            daemon.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.executable)
            daemon.arguments = [
                "--board", "real", "--simulate", "barometer", "--socket", socket, "--config", config,
            ]
            daemon.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            daemon.standardError = errors
            try daemon.run()
            for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
            return daemon
        }

        /// The logbook's one flight: finished, as long as the status said (`flown`), and the
        /// walk's 1.5 km within 3 %. `log` (the daemon's) is shown when the distances disagree:
        /// the reconnections and the clock's judgements say where live and saved parted.
        func landedWalk(flown: Double, log: String) throws -> Flight {
            let logbook = try Logbook(path: logbook, access: .readOnly)
            let entry = try #require(try logbook.entries().first)
            #expect(entry.status == .finished)
            #expect(
                abs(entry.distance - flown) < 20,
                "saved \(entry.distance) m, live \(flown) m; the daemon's log:\n\(log)")
            #expect(abs(entry.distance - 1_500) < 1_500 * 0.03, "\(entry.distance) m")
            return try #require(try logbook.flight(id: entry.id)).flight
        }

        func status() throws -> [String: Any] {
            try #require(
                try DaemonEndToEndTests.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any])
        }

        /// Waits until the distance has stopped growing for 3 s (the replay ended) or `seconds`
        /// pass; returns it.
        func flown(atLeast minimum: Double, seconds: Double = 60) async throws -> Double {
            var distance = 0.0
            var unchanged = 0
            for _ in 0..<Int(seconds * 10) {
                try await Task.sleep(for: .milliseconds(100))
                let now = try status()["distance_m"] as? Double ?? 0
                unchanged = now == distance ? unchanged + 1 : 0
                distance = now
                if distance >= minimum && unchanged >= 30 { break }
            }
            return distance
        }
    }

    static func text(_ file: String) -> String {
        (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
    }

    @Test func aRunThroughGpsdWithTheBarometerHasAltitudeGainAndSurvivesGpsdDying() async throws {
        let board = try Board()
        defer { try? FileManager.default.removeItem(atPath: board.directory) }
        // Four lead-ins, 20 s at this pace: the daemon's reconnect backs off 1, 2, 4, 8 s while
        // gpsd is gone, and on a loaded machine it can come back after two lead-ins (10 s) have
        // run out, so that the walk's next epochs, minutes of walking at 65 a second, are an
        // outage bridged live and saved by rules of their own (a 5-minute outage at a walk,
        // simulated: live ±40 m, saved ±13 m). Three local `make test` runs had saved and live
        // 24–39 m apart; alone, the test passes with two.
        let walk = try board.walk(parts: 2, leadIns: 4)
        let (logFile, errors) = try board.logFile()
        // gpsd first (paced at 5 ms a sentence: ~65 fixes a second), then the daemon.
        let first = try GPSFake(log: walk[0], port: board.port, cycle: 0.005)
        defer { first.stop() }
        let daemon = try board.daemon(errors: errors)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        // START before the first fix: held, then back-filled.
        let held = try DaemonEndToEndTests.request(board.socket, #"{"command":"start"}"#)
        #expect(held["result"] as? String == "held until the first fix")
        let half = try await board.flown(atLeast: 500)
        #expect(half > 600, "first half: \(half) m")

        // gpsd dies mid-run; a new one replays the rest of the walk on the same port.
        first.stop()
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(try board.status()["phase"] as? String == "cruise")
        let second = try GPSFake(log: walk[1], port: board.port, cycle: 0.005)
        defer { second.stop() }
        let distance = try await board.flown(atLeast: half + 500)
        #expect(distance >= half + 500, "the second gpsd's fixes: \(distance) m")
        let status = try board.status()
        #expect(status["altitude_m"] as? Double != nil)
        let landed = try DaemonEndToEndTests.request(board.socket, #"{"command":"stop"}"#)
        #expect(landed["result"] as? String == "landed")
        // The live distance at the landing itself (STOP's reply): on a loaded machine the replay
        // may still stream when `flown` gives up waiting, at ~90 m of walk a second, so the
        // last status read need not be what was flown (CI once: saved and read 21 m apart).
        let atLanding = try #require(landed["distance_m"] as? Double)
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        let log = Self.text(logFile)
        #expect(log.contains("first fix"))
        #expect(log.contains("retrying in"), "gpsd's death was noticed: \(log)")
        #expect(!log.contains("barometer missing"), "\(log)")

        let flight = try board.landedWalk(flown: atLanding, log: log)
        #expect(flight.splits.count >= 1)
        #expect(flight.samples.contains { $0.altitude != nil }, "the barometer reached the flight")
        #expect(flight.elevationGain > 1, "gain \(flight.elevationGain) m on a 12 m hill")
    }

    /// SIGTERM mid-flight, restart: the flight continues (the start-up decision at the first
    /// fix). Then SIGKILL mid-flight, restart: it continues again, from its raw log. One flight
    /// in the logbook, not three.
    @Test func aFlightContinuesAfterSIGTERMAndAfterSIGKILL() async throws {
        let board = try Board()
        defer { try? FileManager.default.removeItem(atPath: board.directory) }
        let walk = try board.walk(parts: 1, leadIns: 2)
        let (logFile, errors) = try board.logFile()
        // Paced at 10 ms a sentence (~33 fixes a second): the walk takes ~35 s.
        let fake = try GPSFake(log: walk[0], port: board.port, cycle: 0.01)
        defer { fake.stop() }
        var daemon = try board.daemon(errors: errors)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        _ = try DaemonEndToEndTests.request(board.socket, #"{"command":"start"}"#)
        func waitFor(distance: Double) async throws -> Double {
            var flown = 0.0
            for _ in 0..<600 where flown < distance {
                try await Task.sleep(for: .milliseconds(100))
                flown = try board.status()["distance_m"] as? Double ?? 0
            }
            return flown
        }
        #expect(try await waitFor(distance: 200) >= 200)
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)

        daemon = try board.daemon(errors: errors)
        let afterTerm = try await waitFor(distance: 500)
        #expect(afterTerm >= 500, "the flight went on after SIGTERM")
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()

        daemon = try board.daemon(errors: errors)
        let afterKill = try await waitFor(distance: 800)
        #expect(afterKill >= 800, "the flight went on after SIGKILL")
        let landed = try DaemonEndToEndTests.request(board.socket, #"{"command":"stop"}"#)
        #expect(landed["result"] as? String == "landed")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()

        let log = Self.text(logFile)
        #expect(log.components(separatedBy: "continues after the restart").count - 1 == 2, "\(log)")
        let entries = try Logbook(path: board.logbook, access: .readOnly).entries()
        #expect(entries.count == 1, "\(entries)")
        #expect(entries.first?.status == .finished)
        // All of it kept: the saved (smoothed) distance is the live one's to within 1 % (the
        // live distance shows metres run since the last counted fix; 799.5 m saved of 800 m once).
        #expect((entries.first?.distance ?? 0) >= afterKill * 0.99, "\(entries) after \(afterKill) m live")
    }

    /// One epoch dated a day ahead (a receiver's glitch, as in gpsd's bt451 capture) in the
    /// middle of a run through a real gpsd: the fixes after it are recorded, nothing is lost but
    /// that epoch, and the flight's clock does not move. (It used to end the recording: every
    /// correct fix after it looked old, and the runner heard SIGNAL LOST.)
    @Test func aFixDatedADayAheadCostsOnlyThatFix() async throws {
        let board = try Board()
        defer { try? FileManager.default.removeItem(atPath: board.directory) }
        let path = try board.walk(parts: 1, leadIns: 2)[0]
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\n")
        let epochs = lines.indices.filter { lines[$0].hasPrefix("$GPRMC") }
        let glitch = epochs[epochs.count / 2]
        lines[glitch] = Self.nmea(lines[glitch]) { fields in fields[9] = "041026" }  // 3 → 4 Oct
        try lines.joined(separator: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        let (logFile, errors) = try board.logFile()
        let fake = try GPSFake(log: path, port: board.port, cycle: 0.005)
        defer { fake.stop() }
        let daemon = try board.daemon(errors: errors)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        _ = try DaemonEndToEndTests.request(board.socket, #"{"command":"start"}"#)
        _ = try await board.flown(atLeast: 1_000)
        let landed = try DaemonEndToEndTests.request(board.socket, #"{"command":"stop"}"#)
        #expect(landed["result"] as? String == "landed")
        let atLanding = try #require(landed["distance_m"] as? Double)
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = Self.text(logFile)
        #expect(log.contains("held apart"), "\(log)")

        let flight = try board.landedWalk(flown: atLanding, log: log)
        #expect(flight.elapsed < 3_600, "elapsed \(flight.elapsed) s")
        #expect(flight.samples.count < 1_000)
    }

    /// An NMEA sentence with its comma-separated fields changed and its checksum made again.
    static func nmea(_ sentence: String, _ change: (inout [String]) -> Void) -> String {
        let body = sentence.dropFirst().split(separator: "*", maxSplits: 1)[0]
        var fields = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        change(&fields)
        let changed = fields.joined(separator: ",")
        let checksum = changed.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$\(changed)*\(String(format: "%02X", checksum))"
    }
}
