import Foundation
import RunWayStore
import Testing

/// The battery gauge through the kernel's power-supply files (a stand-in directory in the
/// configuration): low is said once; critical lands the flight in the air, saved, before the
/// power dies.
@Suite("runwayd: a critical battery lands the flight", .serialized)
struct DaemonBatteryTests {
    @Test func lowIsSaidOnceAndCriticalLandsAndSavesTheFlight() async throws {
        let directory = NSTemporaryDirectory() + "runwayd-battery-\(UUID().uuidString.prefix(8))"
        let supply = directory + "/power_supply/BAT0"
        try FileManager.default.createDirectory(atPath: supply, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func battery(_ percent: Int) throws {
            try "Battery\n".write(toFile: supply + "/type", atomically: true, encoding: .utf8)
            try "Discharging\n".write(toFile: supply + "/status", atomically: true, encoding: .utf8)
            try "\(percent)\n".write(toFile: supply + "/capacity", atomically: true, encoding: .utf8)
        }
        try battery(60)
        let config = directory + "/runway.json"
        try #"{"battery": {"power_supply": "\#(directory)/power_supply", "poll_seconds": 0.2}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let logbook = directory + "/logbook.sqlite"
        let socket = directory + "/control.sock"
        let logFile = directory + "/runwayd.log"
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.executable)
        daemon.arguments = [
            "--board", "simulated", "--speed", "100", "--socket", socket, "--logbook", logbook, "--config",
            config,
        ]
        daemon.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        try daemon.run()
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        _ = try DaemonEndToEndTests.request(socket, #"{"command":"start"}"#)
        func status() throws -> [String: Any] {
            try #require(
                try DaemonEndToEndTests.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any])
        }
        for _ in 0..<300 where (try status()["distance_m"] as? Double ?? 0) < 300 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try status()["battery_percent"] as? Double == 60)
        try battery(15)
        try await Task.sleep(for: .milliseconds(600))
        try battery(14)
        try await Task.sleep(for: .milliseconds(600))
        #expect(try status()["phase"] as? String == "cruise")  // low: said, the run goes on
        try battery(4)
        // Landed: the status is back in preflight (the board's state after TOUCHDOWN).
        for _ in 0..<100 where try status()["phase"] as? String != "preflight" {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try status()["phase"] as? String == "preflight")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        #expect(log.components(separatedBy: "battery low: ").count - 1 == 1, "\(log)")
        #expect(log.contains("battery critical: 4 %; landing the flight"), "\(log)")
        let entry = try #require(try Logbook(path: logbook, access: .readOnly).entries().first)
        #expect(entry.status == .finished && entry.distance > 300)
    }
}
