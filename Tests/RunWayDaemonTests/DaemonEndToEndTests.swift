import Foundation
import RunWayControl
import RunWayCore
@testable import RunWayDaemon
import RunWayStore
import RunWayTestSupport
import Testing

/// runwayd as a process on the simulated board: it tells a (test) systemd it is ready, flies a
/// run started, paused, resumed and ended through the control socket, records it, and shuts
/// down gracefully on SIGTERM.
@Suite("runwayd end to end on the simulated board", .serialized)
struct DaemonEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var executable: String {
        for config in ["debug", "release"] {
            let path = root.appendingPathComponent(".build/\(config)/runwayd").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return root.appendingPathComponent(".build/debug/runwayd").path
    }

    /// A datagram socket standing in for systemd's notify socket.
    final class NotifySocket {
        let path: String
        let fd: Int32

        init() {
            path = NSTemporaryDirectory() + "rw-notify-\(UUID().uuidString.prefix(8))"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit {
            close(fd)
            unlink(path)
        }

        /// The next notification, or nil after 10 s.
        func next() -> String? {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n > 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : nil
        }
    }

    static func request(_ socket: String, _ json: String) throws -> [String: Any] {
        let client = try SocketClient(path: socket)
        client.send(json + "\n")
        return try #require(client.object(), "no reply to \(json)")
    }

    @Test func aRunStartedPausedAndEndedThroughTheSocketIsRecorded() async throws {
        let directory = NSTemporaryDirectory() + "runwayd-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/control.sock"
        let logbook = directory + "/logbook.sqlite"
        let notify = NotifySocket()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        // 60×: the scenario's 29 minutes last 29 s, room for a START that a loaded machine sends
        // seconds after READY (at 300× the scenario had ended before it; its sensors start with
        // the daemon), and still over 500 m in the test's 5 s.
        process.arguments = [
            "--board", "simulated", "--speed", "60", "--socket", socket, "--logbook", logbook, "--config",
            directory + "/none.json",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment.removeValue(forKey: "JOURNAL_STREAM")
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // STATUS= may come first ("waiting for GPS"); READY=1 once the socket listens.
        var notifications: [String] = []
        while let message = notify.next() {
            notifications.append(message)
            if message == "READY=1" { break }
        }
        #expect(notifications.last == "READY=1", "\(notifications)")
        #expect(notifications.dropLast().allSatisfy { $0.hasPrefix("STATUS=") })
        // From here on nobody reads the notify socket: its queue fills with STATUS= lines, and
        // the daemon must neither stall nor hang at SIGTERM (a blocking sd_notify did both).
        // A client that sends garbage, and one that hangs, disturb nothing.
        let hung = try SocketClient(path: socket)
        #expect(try Self.request(socket, "garbage")["ok"] as? Bool == false)
        // The simulated board's first fix can come after READY on a loaded machine: until then
        // START is refused with "no GPS time yet" (the real board holds it instead).
        var started = try Self.request(socket, #"{"command":"start"}"#)
        for _ in 0..<200 where (started["error"] as? String)?.contains("no GPS time yet") == true {
            try await Task.sleep(for: .milliseconds(100))
            started = try Self.request(socket, #"{"command":"start"}"#)
        }
        // Accepted: in the countdown, or already past it at 300× on a loaded machine.
        #expect(["takeoff", "cruise"].contains(started["phase"] as? String ?? ""), "\(started)")
        // A stop sent before this START is stale: ignored.
        let stale = try Self.request(socket, #"{"command":"stop","sent_at":"2020-01-01T00:00:00Z"}"#)
        #expect((stale["result"] as? String)?.hasPrefix("ignored") == true)
        try await Task.sleep(for: .seconds(2))
        #expect(try Self.request(socket, #"{"command":"pause"}"#)["ok"] as? Bool == true)
        let paused = try Self.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any]
        #expect(paused?["paused"] as? Bool == true)
        #expect(try Self.request(socket, #"{"command":"resume"}"#)["ok"] as? Bool == true)
        try await Task.sleep(for: .seconds(3))
        let status = try #require(
            try Self.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any])
        #expect(status["phase"] as? String == "cruise")
        #expect((status["distance_m"] as? Double ?? 0) > 500)
        #expect(status["altitude_m"] as? Double != nil)  // the barometer reached the engine
        let landed = try Self.request(socket, #"{"command":"stop"}"#)  // no time: obeyed
        #expect(landed["result"] as? String == "landed")
        let distance = try #require(landed["distance_m"] as? Double)
        _ = hung
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("stopped simulated board"), "\(log)")
        let stored = try Logbook(path: logbook, access: .readOnly)
        let entry = try #require(try stored.entries().first)
        let flight = try #require(try stored.flight(id: entry.id)).flight
        // The reply is the live engine's landing; the logbook saves it smoothed, the live beside.
        #expect(entry.status == .finished && abs((flight.liveDistance ?? 0) - distance) < 0.5)
        #expect(flight.distanceMethod == .smoothed && abs(entry.distance - distance) < 0.02 * distance)
        #expect(flight.splits.count >= 1)
        #expect(flight.samples.contains { $0.altitude != nil })
        #expect(!FileManager.default.fileExists(atPath: socket))  // removed at shutdown
    }

    @Test func aConfigurationMistakeIsRefusedAtStartWithItsKey() throws {
        let config = try RunWayBinaryPath.temporary(#"{"board": {"buttons": {"end": "22a"}}}"#)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["--check-config", "--config", config]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains(#"board.buttons.end: expected a GPIO line 0–53, got "22a""#))
    }
}

enum RunWayBinaryPath {
    static func temporary(_ contents: String) throws -> String {
        let path = NSTemporaryDirectory() + "runwayd-config-\(UUID().uuidString).json"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// `runway status`, `start`, `pause`, `resume`, `stop` against a running runwayd.
@Suite("runway's control commands against runwayd", .serialized)
struct ControlCommandTests {
    /// Runs `runway` on a thread of its own (it waits for the child).
    static func runway(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        try await offPool { try runSync(arguments) }
    }

    static func runSync(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let output = try runToEnd(
            DaemonEndToEndTests.root.appendingPathComponent(".build/debug/runway").path, arguments)
        return (output.status, output.stdout, output.stderr)
    }

    @Test func theRunnersCommands() async throws {
        let directory = NSTemporaryDirectory() + "runway-ctl-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/control.sock"
        let absent = try await Self.runway(["status", "--socket", socket])
        #expect(
            absent.status == 1
                && absent.err.contains("runwayd is not running (no control socket at \(socket))"))
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.executable)
        daemon.arguments = [
            "--board", "simulated", "--speed", "100", "--socket", socket, "--logbook",
            directory + "/l.sqlite",
            "--config", directory + "/none.json",
        ]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer {
            kill(daemon.processIdentifier, SIGTERM)
            daemon.waitUntilExit()
        }
        while !FileManager.default.fileExists(atPath: socket) { try await Task.sleep(for: .milliseconds(20)) }
        var started = try await Self.runway([
            "start", "--mission", "pace=5:30,distance=5km", "--socket", socket,
        ])
        // Before the simulated board's first fix (late on a loaded machine) START is refused.
        for _ in 0..<200 where started.err.contains("no GPS time yet") {
            try await Task.sleep(for: .milliseconds(100))
            started = try await Self.runway([
                "start", "--mission", "pace=5:30,distance=5km", "--socket", socket,
            ])
        }
        #expect(started.status == 0 && started.out.contains("now takeoff"), "\(started)")
        try await Task.sleep(for: .milliseconds(1_500))
        let status = try await Self.runway(["status", "--socket", socket])
        #expect(status.status == 0 && status.out.hasPrefix("CRUISE"), "\(status)")
        let json = try await Self.runway(["status", "--json", "--socket", socket])
        #expect(json.out.contains(#""phase":"cruise""#))
        #expect(try await Self.runway(["pause", "--socket", socket]).out.contains("now cruise"))
        #expect(try await Self.runway(["resume", "--socket", socket]).status == 0)
        let stopped = try await Self.runway(["stop", "--socket", socket])
        #expect(stopped.status == 0 && stopped.out.hasPrefix("landed"), "\(stopped)")
        let again = try await Self.runway(["stop", "--socket", socket])
        #expect(again.out.hasPrefix("not flying"))
        // The saved flight is marked beside the logbook, for runway-drive.path to rebuild the
        // USB drive image.
        #expect(try String(contentsOfFile: directory + "/landed", encoding: .utf8) == "1\n")
        // The USB export's unit tells the daemon how it ended, with systemd's $SERVICE_RESULT.
        #expect(
            try await Self.runway(["export-finished", "success", "--socket", socket]).out == "export done\n")
        #expect(
            try await Self.runway(["export-finished", "exit-code", "--socket", socket]).out
                == "export failed\n")
    }
}

/// SIGTERM with a flight in the air: the raw log is committed and the flight stays open; the
/// next start closes it from its raw log (the simulated board replays its scenario from the
/// start, so it cannot be continued there).
@Suite("runwayd: SIGTERM mid-flight keeps the flight", .serialized)
struct DaemonShutdownTests {
    static func daemon(_ directory: String) async throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.executable)
        process.arguments = [
            // An hour-long scenario at 20×: a START delayed by a loaded test machine still finds the
            // sensors running (the 30-minute demo at 200× could end before it arrived, and at 50×
            // the hour's 72 s once ran out under the full suite with the recogniser's test beside
            // it; 180 s leaves room, and 400 m still takes only ~7 s).
            "--board", "simulated", "--scenario", "endurance-1h", "--speed", "20", "--socket",
            directory + "/control.sock", "--logbook",
            directory + "/logbook.sqlite", "--config", directory + "/none.json",
        ]
        let log = directory + "/runwayd.log"
        if !FileManager.default.fileExists(atPath: log) {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        handle.seekToEndOfFile()
        process.standardError = handle
        // A socket file left by an earlier daemon must not be taken for this one's.
        try? FileManager.default.removeItem(atPath: directory + "/control.sock")
        try process.run()
        while !FileManager.default.fileExists(atPath: directory + "/control.sock") {
            try await Task.sleep(for: .milliseconds(20))
        }
        return process
    }

    @Test func aFlightInTheAirStaysOpenWithItsRawLogAndIsRecoveredAtTheNextStart() async throws {
        let directory = NSTemporaryDirectory() + "runwayd-term-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try await Self.daemon(directory)
        _ = try DaemonEndToEndTests.request(directory + "/control.sock", #"{"command":"start"}"#)
        // Well past 100 m, so the recovered flight is kept (a loaded machine may fly slowly).
        for _ in 0..<600 {
            try await Task.sleep(for: .milliseconds(50))
            let status =
                try DaemonEndToEndTests.request(directory + "/control.sock", #"{"command":"status"}"#)[
                    "status"]
                as? [String: Any]
            if (status?["distance_m"] as? Double ?? 0) > 400 { break }
        }
        let flown = try #require(
            try DaemonEndToEndTests.request(directory + "/control.sock", #"{"command":"status"}"#)["status"]
                as? [String: Any])
        let elapsed = flown["elapsed_s"] as? Double ?? 0
        #expect(elapsed > 60)
        kill(first.processIdentifier, SIGTERM)
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        do {
            // Opened for writing, the logbook takes the journal in (and closes nothing by itself).
            let logbook = try Logbook(path: directory + "/logbook.sqlite")
            let entry = try #require(try logbook.entries().first)
            #expect(entry.status == .flying)
            // Committed at shutdown: up to the last input, not only to the last 4-second commit.
            let until = try #require(try logbook.recordedUntil(flight: entry.id)) - entry.startTime
            #expect(until >= elapsed - 1, "raw log up to \(until) s of \(elapsed) s")
        }
        let second = try await Self.daemon(directory)
        kill(second.processIdentifier, SIGTERM)
        second.waitUntilExit()
        let log = (try? String(contentsOfFile: directory + "/runwayd.log", encoding: .utf8)) ?? ""
        let entry = try #require(
            try Logbook(path: directory + "/logbook.sqlite", access: .readOnly).entries().first, "\(log)")
        #expect(entry.status == .recovered && entry.distance > 100, "\(log)")
    }
}

/// `runway stop` from the board itself sends no time: the board has no RTC, so its wall clock
/// could make the stop look stale, and a stop without a time is obeyed (SPEC, control rules).
@Suite("runway stop sends no sent_at")
struct StopWithoutTimeTests {
    final class Requests: @unchecked Sendable {
        // @unchecked Sendable: `all` is only touched while `lock` is held.
        private let lock = NSLock()
        private var list: [ControlRequest] = []
        private var offPool: [Bool] = []
        func add(_ request: ControlRequest, offPool answering: Bool) {
            lock.withLock {
                list.append(request)
                offPool.append(answering)
            }
        }
        var all: [ControlRequest] { lock.withLock { list } }
        /// Whether each was answered on the control socket's own thread.
        var answeredOffPool: [Bool] { lock.withLock { offPool } }
    }

    /// The server here shares this test process's cooperative pool with every test running
    /// beside it; on 2 cores two CPU-bound or blocking tests hold that pool for seconds, and an
    /// answer carried out there came after `runway`'s 5 s (exit 1, "did not answer", in about
    /// half the full parallel runs). So the answer must come from the socket's own thread.
    @Test func theBoardsOwnStopIsObeyedWhateverItsClockSays() async throws {
        let path = NSTemporaryDirectory() + "rw-stop-\(UUID().uuidString.prefix(8)).sock"
        let seen = Requests()
        let server = ControlServer(path: path) { request in
            seen.add(request, offPool: ControlServer.answering.isCurrentThread)
            return ControlReply.ok([("phase", .string("touchdown"))])
        }
        let task = Task { try await server.run() }
        defer { task.cancel() }
        await server.ready()
        let runway = DaemonEndToEndTests.root.appendingPathComponent(".build/debug/runway").path
        let errors = path + ".stderr"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errors) }
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: runway)
                process.arguments = ["stop", "--socket", path]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle(forWritingAtPath: errors)
                try? process.run()
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }.start()
        }
        // What runway said, so a failure on a loaded machine says why.
        #expect(status == 0, "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        #expect(seen.all == [.stop(sentAt: nil)])
        #expect(seen.answeredOffPool == [true])
    }
}
