import Foundation
import RunWayControl
import RunWayCore
import RunWayStore
import RunWayTestSupport
import Testing

@testable import RunWayDaemon

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

        /// The notifications already sent, without waiting for more.
        func sent() -> [String] {
            var messages: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while case let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT)), n > 0 {
                messages.append(String(decoding: buffer.prefix(n), as: UTF8.self))
            }
            return messages
        }
    }

    /// A configuration of the defaults in `directory`, so a test does not run on the machine's
    /// /etc/runway/runway.json (a `--config` that names no file is refused).
    static func defaults(in directory: String) throws -> String {
        let path = directory + "/defaults.json"
        try "{}".write(toFile: path, atomically: true, encoding: .utf8)
        return path
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
            try DaemonEndToEndTests.defaults(in: directory),
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
        // PAUSE during the countdown abandons the takeoff (SPEC): on a loaded machine the
        // simulated board's fixes may not have carried the flight past it yet, so wait for cruise.
        for _ in 0..<200 {
            let phase = (try Self.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any])?[
                "phase"]
            if phase as? String == "cruise" { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try Self.request(socket, #"{"command":"pause"}"#)["ok"] as? Bool == true)
        let paused = try Self.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any]
        #expect(paused?["paused"] as? Bool == true)
        // START on a paused flight resumes it (issue 27: a PAUSE bump undone by START).
        let restarted = try Self.request(socket, #"{"command":"start"}"#)
        #expect(restarted["result"] as? String == "resumed", "\(restarted)")
        let running = try Self.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any]
        #expect(running?["paused"] as? Bool == false)
        #expect(try Self.request(socket, #"{"command":"pause"}"#)["ok"] as? Bool == true)
        #expect(try Self.request(socket, #"{"command":"resume"}"#)["ok"] as? Bool == true)
        try await Task.sleep(for: .seconds(3))
        let status = try #require(
            try Self.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any])
        #expect(status["phase"] as? String == "cruise")
        #expect((status["distance_m"] as? Double ?? 0) > 500)
        #expect(status["altitude_m"] as? Double != nil)  // the barometer reached the engine
        let landed = try Self.request(socket, #"{"command":"stop"}"#)  // no time: obeyed
        #expect(landed["result"] as? String == "landed", "\(landed)")
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

    /// Issue 27: runwayd said READY=1 before it failed on a socket folder that is not there, so
    /// systemd took a daemon that served nothing for a started one.
    @Test func aControlSocketThatCannotBeMadeIsNeverReady() async throws {
        let directory = NSTemporaryDirectory() + "runwayd-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notify = NotifySocket()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = [
            "--board", "simulated", "--socket", directory + "/missing/control.sock", "--logbook",
            directory + "/logbook.sqlite", "--config", try Self.defaults(in: directory),
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment.removeValue(forKey: "JOURNAL_STREAM")
        process.environment = environment
        let output = try await offPool { try runToEnd(process) }
        #expect(output.status == 1, "\(output.stderr)")
        let notifications = notify.sent()
        #expect(!notifications.contains("READY=1"), "\(notifications)")
        #expect(
            output.stderr.contains("the control socket's folder \(directory)/missing does not exist"),
            "\(output.stderr)")
    }

    /// Issue 27: `--config` naming no file ran the board on the defaults without a word.
    @Test func aConfigurationFileThatIsNotThereIsRefusedWithItsPath() throws {
        let missing = NSTemporaryDirectory() + "runwayd-\(UUID().uuidString.prefix(8))/runway.json"
        for arguments in [["--config", missing], ["--check-config", "--config", missing]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.executable)
            // Were the missing file taken for the defaults, runwayd would still end at once: its
            // logbook and socket are in a folder that does not exist either.
            process.arguments =
                arguments + [
                    "--board", "simulated", "--socket", missing + ".sock", "--logbook", missing + ".sqlite",
                ]
            let output = try runToEnd(process)
            #expect(output.status == 1, "\(arguments): \(output.stderr)")
            #expect(output.stderr.contains("configuration \(missing): no such file"), "\(output.stderr)")
            #expect(!output.stdout.contains("valid") && !output.stdout.contains("absent"), "\(output.stdout)")
        }
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
            "--config", try DaemonEndToEndTests.defaults(in: directory),
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
        // Back in preflight after TOUCHDOWN, as documented (issue 27: it said "TOUCHDOWN 0.00 km").
        let after = try await Self.runway(["status", "--socket", socket])
        #expect(after.status == 0 && after.out.hasPrefix("PREFLIGHT"), "\(after)")
        let afterJSON = try await Self.runway(["status", "--json", "--socket", socket])
        #expect(afterJSON.out.contains(#""phase":"preflight""#), "\(afterJSON)")
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
            directory + "/logbook.sqlite", "--config", try DaemonEndToEndTests.defaults(in: directory),
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

/// A second runwayd (issue 27): it took over the first one's control socket and removed it at
/// exit (`runway status` then said "not running" while a run recorded), and could open the same
/// logbook. It is refused at start with a sentence saying why, and the first is left as it was.
@Suite("runwayd: a second one is refused", .serialized)
struct SecondDaemonTests {
    static func launch(_ arguments: [String], errors: String) throws -> Process {
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.executable)
        process.arguments = ["--board", "simulated", "--speed", "20"] + arguments
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        return process
    }

    /// The exit status of `process` once it has ended by itself, or nil (and it is killed) when
    /// it still runs after `seconds`.
    static func exitStatus(_ process: Process, within seconds: Double = 30) async throws -> Int32? {
        for _ in 0..<Int(seconds * 20) where process.isRunning {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    @Test func aLogbookFolderThatIsNotThereIsSaidAsSuch() throws {
        let directory = NSTemporaryDirectory() + "runwayd-nofolder-\(UUID().uuidString.prefix(8))"
        let output = try runToEnd(
            DaemonEndToEndTests.executable,
            [
                "--board", "simulated", "--socket", directory + ".sock", "--logbook", directory + "/l.sqlite",
                "--config", try RunWayBinaryPath.temporary("{}"),
            ])
        #expect(output.status == 1)
        let said = output.stderr
        #expect(said.contains("the logbook's folder \(directory) does not exist"), "\(said)")
    }

    @Test func aSecondRunwaydOnTheSameSocketOrLogbookIsRefusedAndTheFirstGoesOn() async throws {
        let directory = NSTemporaryDirectory() + "runwayd-two-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (socket, logbook) = (directory + "/control.sock", directory + "/logbook.sqlite")
        let config = directory + "/runway.json"
        try "{}".write(toFile: config, atomically: true, encoding: .utf8)
        let first = try Self.launch(
            ["--socket", socket, "--logbook", logbook, "--config", config], errors: directory + "/first.log")
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try DaemonEndToEndTests.request(socket, #"{"command":"status"}"#)["ok"] as? Bool == true)
        let cases: [(name: String, arguments: [String], says: String)] = [
            (
                "same socket and logbook", ["--socket", socket, "--logbook", logbook],
                "is already running on the logbook \(logbook)"
            ),
            (
                "same logbook, another socket",
                ["--socket", directory + "/other.sock", "--logbook", logbook],
                "is already running on the logbook \(logbook)"
            ),
            (
                "same socket, another logbook",
                ["--socket", socket, "--logbook", directory + "/other.sqlite"],
                "another runwayd answers on the control socket \(socket)"
            ),
        ]
        for (n, attempt) in cases.enumerated() {
            let errors = directory + "/second-\(n).log"
            let second = try Self.launch(attempt.arguments + ["--config", config], errors: errors)
            let status = try await Self.exitStatus(second)
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(status == 1, "\(attempt.name): \(status.map { "exit \($0)" } ?? "still running") \(said)")
            #expect(said.contains(attempt.says), "\(attempt.name): \(said)")
            // The first is untouched: its socket is there and answers.
            #expect(FileManager.default.fileExists(atPath: socket), "\(attempt.name)")
            let reply = try DaemonEndToEndTests.request(socket, #"{"command":"status"}"#)
            #expect(reply["ok"] as? Bool == true, "\(attempt.name)")
        }
        // Nothing of the refused ones is left beside the first's.
        #expect(!FileManager.default.fileExists(atPath: directory + "/other.sock"))
        // A socket left by a runwayd that died (SIGKILL: nothing removed it) answers nobody and
        // is replaced by the next; the lock died with it.
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: socket))
        let third = try Self.launch(
            ["--socket", socket, "--logbook", logbook, "--config", config], errors: directory + "/third.log")
        defer { if third.isRunning { kill(third.processIdentifier, SIGKILL) } }
        var answered = false
        for _ in 0..<500 where !answered {
            try await Task.sleep(for: .milliseconds(20))
            answered =
                (try? DaemonEndToEndTests.request(socket, #"{"command":"status"}"#)["ok"] as? Bool) == true
        }
        #expect(answered)
    }
}

/// Issue 27: a user outside the group runway got "cannot reach runwayd: Permission denied" from
/// `runway status`, no word of the group, and the checklist said runwayd was not running.
@Suite("runway: a control socket this user may not use")
struct ControlSocketPermissionTests {
    @Test func permissionDeniedSaysSoAndHowToJoinTheGroup() async throws {
        let directory = NSTemporaryDirectory() + "rw-perm-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o755)
        let socket = directory + "/control.sock"
        let server = ControlServer(path: socket) { _ in ControlReply.ok([("phase", .string("preflight"))]) }
        let task = Task { try await server.run() }
        defer { task.cancel() }
        #expect(await server.ready())
        // Nobody may use it; root may anyway, so the commands run as nobody when this is root.
        chmod(socket, 0)
        let runway = DaemonEndToEndTests.root.appendingPathComponent(".build/debug/runway").path
        @Sendable func asUser(_ arguments: [String]) throws -> ChildOutput {
            getuid() == 0
                ? try runToEnd(
                    "/usr/bin/setpriv",
                    ["--reuid=65534", "--regid=65534", "--clear-groups", runway] + arguments)
                : try runToEnd(runway, arguments)
        }
        for arguments in [
            ["status", "--socket", socket],
            [
                "checklist", "--wait", "1", "--socket", socket, "--config", "/nonexistent.json", "--logbook",
                "/nonexistent/dir/logbook.sqlite",
            ],
        ] {
            let output = try await offPool { try asUser(arguments) }
            #expect(output.status == 1, "\(arguments[0]): \(output.stdout) \(output.stderr)")
            #expect(
                output.stderr.contains("permission denied on runwayd's control socket \(socket)"),
                "\(output.stderr)")
            #expect(output.stderr.contains("sudo usermod -aG runway"), "\(output.stderr)")
            #expect(!output.stdout.contains("not running") && !output.stderr.contains("not running"))
        }
    }
}

/// Issue 27: `runway --version` said 0.1.0 while the Debian package said 0.0~git…: one version
/// for runway, runwayd and the package (scripts/version.sh, which make-deb.sh takes it from).
@Suite("One version for runway, runwayd and the package")
struct ReleaseVersionTests {
    @Test func runwayRunwaydAndThePackageSayTheSameVersion() throws {
        let root = DaemonEndToEndTests.root
        let script = try runToEnd(root.appendingPathComponent("scripts/version.sh").path, [])
        let version = script.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(script.status == 0 && !version.isEmpty, "\(script.stderr)")
        let runway = try runToEnd(root.appendingPathComponent(".build/debug/runway").path, ["--version"])
        #expect(runway.stdout.hasPrefix("runway \(version) ("), "\(runway.stdout)")
        let runwayd = try runToEnd(DaemonEndToEndTests.executable, ["--version"])
        #expect(
            runwayd.status == 0 && runwayd.stdout == "runwayd \(version)\n",
            "\(runwayd.stdout) \(runwayd.stderr)")
        // The package's Version: is that script's, and the package is refused if a binary disagrees.
        let makeDeb = try String(
            contentsOf: root.appendingPathComponent("scripts/make-deb.sh"), encoding: .utf8)
        #expect(makeDeb.contains("version=$(scripts/version.sh)") && makeDeb.contains("Version: $version"))
        #expect(makeDeb.contains(#"said=$(run_target "$bin/$binary" --version)"#))
    }
}

/// runwayd on the simulated board at full speed, for the end-to-end suites that drive it through
/// its socket: its folder, socket, log and logbook; `stop()` ends it (SIGTERM) and removes them.
struct MaxSpeedDaemon {
    let directory: String
    let socket: String
    let log: String
    let logbook: String
    let process: Process

    /// Starts it on `scenario` and waits for its socket (a hang guard of 10 s).
    static func start(scenario: String? = nil, named name: String) async throws -> MaxSpeedDaemon {
        let directory = NSTemporaryDirectory() + "runwayd-\(name)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let daemon = MaxSpeedDaemon(
            directory: directory, socket: directory + "/control.sock", log: directory + "/runwayd.log",
            logbook: directory + "/l.sqlite", process: Process())
        _ = FileManager.default.createFile(atPath: daemon.log, contents: nil)
        daemon.process.executableURL = URL(fileURLWithPath: DaemonEndToEndTests.executable)
        daemon.process.arguments =
            ["--board", "simulated"] + (scenario.map { ["--scenario", $0] } ?? []) + [
                "--speed", "max", "--socket", daemon.socket, "--logbook", daemon.logbook,
                "--config", try DaemonEndToEndTests.defaults(in: directory),
            ]
        daemon.process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: daemon.log))
        try daemon.process.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: daemon.socket) {
            try await Task.sleep(for: .milliseconds(20))
        }
        return daemon
    }

    /// What runwayd has logged so far.
    func said() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// The board's GPS time, once the simulated receiver has a fix.
    func gpsTime() throws -> String? {
        (try DaemonEndToEndTests.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any])?[
            "time"]
            as? String
    }

    /// Waits (up to 10 s) for the first fix.
    func waitForFix() async throws {
        for _ in 0..<200 where try gpsTime() == nil { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// Waits (up to 60 s) for the scenario's sensors to end.
    func waitForTheScenariosEnd() async throws {
        for _ in 0..<1200 where !said().contains("the scenario's sensors have ended") {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Issue 27: the simulated board's scenario began with the daemon, so a START sent late found
/// the runner already on the way (a 5 km mission landed at 4.94 km) or, as fast as it goes, at
/// the finish. The scenario now waits at its START for the runner's.
@Suite("runwayd's simulated board: the scenario starts at START", .serialized)
struct SimulatedStartTests {
    @Test func aLateStartStillFliesTheWholeMission() async throws {
        // As fast as the engine takes it: were the scenario running already, it would be over
        // long before the START below.
        let daemon = try await MaxSpeedDaemon.start(named: "late")
        defer { daemon.stop() }
        // The GPS lock before START is flown at once; START is then late by 2 s (hours at max).
        try await daemon.waitForFix()
        #expect(try daemon.gpsTime() != nil)
        try await Task.sleep(for: .seconds(2))
        #expect(
            !daemon.said().contains("the scenario's sensors have ended"),
            "ended before START: \(daemon.said())")
        let started = try DaemonEndToEndTests.request(daemon.socket, #"{"command":"start"}"#)
        #expect(started["phase"] as? String == "takeoff", "\(started)")
        // No mission is configured: a free run flies (the scenario ends at 5 km), and status names it.
        let flying =
            try DaemonEndToEndTests.request(daemon.socket, #"{"command":"status"}"#)["status"]
            as? [String: Any]
        #expect(flying?["run"] as? String == "free run", "\(flying ?? [:])")
        try await daemon.waitForTheScenariosEnd()
        #expect(daemon.said().contains("the scenario's sensors have ended"))
        let landed = try DaemonEndToEndTests.request(daemon.socket, #"{"command":"stop"}"#)
        #expect(landed["result"] as? String == "landed", "\(landed)")
        // The demo mission's 5 km, all of it (the live engine's distance).
        #expect((landed["distance_m"] as? Double ?? 0) > 5_000, "\(landed)")
    }
}

/// Issue 27: a workout started through the real control socket (`runway start --workout`) on
/// the simulated board's track session: every step flown, a lap per step in the logbook.
@Suite("runwayd flies a workout started through the socket", .serialized)
struct WorkoutThroughTheSocketTests {
    @Test func theTrackSessionIsALapPerStepInTheLogbook() async throws {
        let daemon = try await MaxSpeedDaemon.start(scenario: "track-6x400", named: "workout")
        defer { daemon.stop() }
        let socket = daemon.socket
        try await daemon.waitForFix()
        // A text that is no workout is refused, naming what is wrong, and nothing takes off.
        let refused = try DaemonEndToEndTests.request(
            socket, #"{"command":"start","workout":"6x(work -400m)"}"#)
        #expect(refused["ok"] as? Bool == false)
        #expect((refused["error"] as? String ?? "").contains("step 1: distance -400 m"), "\(refused)")
        let started = try DaemonEndToEndTests.request(
            socket, #"{"command":"start","workout":"wu 1km; 6x(work 400m @3:50±10, recover 200m); cd 1km"}"#)
        #expect(started["phase"] as? String == "takeoff", "\(started)")
        // Status names what flies, not the buttons' choice (a free run here).
        let flying =
            try DaemonEndToEndTests.request(socket, #"{"command":"status"}"#)["status"] as? [String: Any]
        #expect(flying?["run"] as? String == "workout", "\(flying ?? [:])")
        try await daemon.waitForTheScenariosEnd()
        let landed = try DaemonEndToEndTests.request(socket, #"{"command":"stop"}"#)
        #expect(landed["result"] as? String == "landed", "\(landed)")
        kill(daemon.process.processIdentifier, SIGTERM)
        daemon.process.waitUntilExit()
        let logbook = try Logbook(path: daemon.logbook, access: .readOnly)
        let stored = try #require(try logbook.entries().first)
        let flight = try #require(try logbook.flight(id: stored.id)).flight
        #expect(flight.workout?.steps.count == 14)
        #expect(flight.laps.count == 15, "\(flight.laps.count)")
        #expect(flight.laps.filter { $0.step?.kind == .work }.allSatisfy { abs($0.distance - 400) < 12 })
        #expect(flight.decisions.filter { $0.kind == .step }.count == 14)
    }
}
