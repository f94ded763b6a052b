import Foundation
import RunWayCLI
import RunWayCore
import RunWayStore
import RunWayTestSupport
import Testing

/// runwayd on the real board's path: fixes from a real gpsd (gpsfake replaying a simulated walk),
/// mapped onto the engine's time by the time base; a START pressed before the first fix is held
/// and back-filled; no barometer on this machine, so the flight goes on without altitude.
@Suite("runwayd with a real gpsd", .serialized)
struct DaemonGpsdTests {
    @Test func aRunFromGpsdThroughTheDaemonIsRecorded() async throws {
        let directory = NSTemporaryDirectory() + "runwayd-gpsd-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // gpsd drops what arrives before a client watches, and the daemon, started before gpsd,
        // retries with back-off (after 1, 2, 4, 8 s). gpsfake is paced at 5 ms a sentence with
        // 20 s of lead-in (no fix, no time), so the daemon is watching when the walk begins.
        let walk = try SimulateCommand.lines(scenario: "walker", format: .nmea)
        let nmea = String(repeating: GPSFake.leadIn, count: 3) + walk.joined(separator: "\r\n") + "\r\n"
        let log = directory + "/walk.nmea"
        try nmea.write(toFile: log, atomically: true, encoding: .utf8)
        let port = try GPSFake.freePort()
        let socket = directory + "/control.sock"
        let logbook = directory + "/logbook.sqlite"
        let config = directory + "/runway.json"
        try #"{"gpsd": "127.0.0.1:\#(port)", "logbook": "\#(logbook)", "board": {"i2c": {"bus": 250}}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.executable)
        daemon.arguments = ["--board", "real", "--socket", socket, "--config", config]
        let errors = Pipe()
        daemon.standardError = errors
        try daemon.run()
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        while !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(20)) }
        // START before gpsd is even there: held until the first fix, then back-filled.
        let held = try DaemonEndToEndTests.request(socket, #"{"command":"start"}"#)
        #expect(held["result"] as? String == "held until the first fix")
        let fake = try GPSFake(log: log, port: port, cycle: 0.005)
        defer { fake.stop() }
        // Wait for the walk to be flown (~65 fixes a second; a live run gives 1–10).
        var distance = 0.0
        var unchanged = 0
        for _ in 0..<600 {
            try await Task.sleep(for: .milliseconds(100))
            let status =
                try DaemonEndToEndTests.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any]
            let now = status?["distance_m"] as? Double ?? 0
            unchanged = now == distance ? unchanged + 1 : 0
            distance = now
            if distance > 0 && unchanged >= 30 { break }  // the replay ended 3 s ago
        }
        #expect(distance > 1_400)
        let landed = try DaemonEndToEndTests.request(socket, #"{"command":"stop"}"#)
        #expect(landed["result"] as? String == "landed")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("barometer missing"), "\(text)")
        #expect(text.contains("first fix"))
        let entry = try #require(try Logbook(path: logbook, access: .readOnly).entries().first)
        #expect(entry.status == .finished)
        #expect(abs(entry.distance - (landed["distance_m"] as? Double ?? 0)) < 0.5)
        #expect(abs(entry.distance - 1_500) < 1_500 * 0.03, "\(entry.distance) m")
    }
}
