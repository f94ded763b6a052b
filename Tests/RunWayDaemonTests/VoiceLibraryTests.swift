import Foundation
import RunWayTestSupport
import Testing

/// Issue 29: the speech engines are opened when a voice first speaks, not linked. Linked, every
/// flite voice and libespeak-ng with the libraries it needs were mapped at every start: 5 MiB of
/// runwayd's RSS for voices that never spoke.
@Suite("runwayd maps no speech engine before it speaks")
struct VoiceLibraryTests {
    @Test func aBoardWithoutItsAudioDeviceMapsNoEngine() async throws {
        let directory = NSTemporaryDirectory() + "runwayd-voice-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The default voice (English, flite's kal16), its device missing: the buzzer alone.
        let config = directory + "/runway.json"
        try #"{"voice": {"device": "plughw:NoSuchCard,0,0"}}"#.write(
            toFile: config, atomically: true, encoding: .utf8)
        let log = directory + "/runwayd.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let notify = DaemonEndToEndTests.NotifySocket()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.executable)
        process.arguments = [
            "--board", "simulated", "--socket", directory + "/control.sock", "--logbook",
            directory + "/logbook.sqlite", "--config", config,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment.removeValue(forKey: "JOURNAL_STREAM")
        process.environment = environment
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        while let message = notify.next(), message != "READY=1" {}
        // The voice thread has chosen its output once it says so.
        let read = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        try await eventually(upTo: 10) { read().contains("voice: ") }
        let text = read()
        #expect(text.contains("voice: no audio device"), "\(text)")
        let maps = try String(contentsOfFile: "/proc/\(process.processIdentifier)/maps", encoding: .utf8)
        let speech = maps.split(separator: "\n").filter {
            $0.contains("libflite") || $0.contains("libespeak")
        }
        #expect(speech.isEmpty, "\(speech)")
    }
}
