import Foundation
import RunWayControl
import RunWayCore
import RunWayDaemon
import Testing

/// A test client on the control socket: blocking, with a receive timeout.
final class SocketClient {
    let fd: Int32
    // `line()` runs on a fresh thread per call (`nextLine()`): the lock orders those threads'
    // use of `buffer` (ThreadSanitizer does not see the order through the continuations).
    private let lock = NSLock()
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        // Generous: a loaded machine (2 cores in CI, every suite at once) can starve the pool the
        // server answers on for seconds; the tests judge answers, not their speed.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or nil when the server closed or nothing came within 20 s.
    func line() -> String? {
        lock.withLock { unlockedLine() }
    }

    private func unlockedLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer += chunk.prefix(n)
        }
    }

    func object() -> [String: Any]? {
        line().flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// `line()` on a thread of its own: an async test must not block one of the cooperative
    /// pool's few threads (the server answers on that pool).
    func nextLine() async -> String? {
        await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let box = UnsafeSendable(self)
            Thread { continuation.resume(returning: box.value.line()) }.start()
        }
    }

    func nextObject() async -> [String: Any]? {
        await nextLine().flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

/// Hands a value to one other thread that uses it alone while the sender waits.
struct UnsafeSendable<T>: @unchecked Sendable {
    // @unchecked Sendable: used only to pass a test's client to the one thread that reads it
    // while the test awaits that thread's answer; the client's own lock orders its state.
    let value: T
    init(_ value: T) { self.value = value }
}

@Suite("Control protocol: requests parsed strictly")
struct ControlProtocolTests {
    static func parse(_ text: String) -> Result<ControlRequest, ControlRequest.Refusal> {
        Result { () throws(ControlRequest.Refusal) in try ControlRequest.parse(Array(text.utf8)) }
    }

    @Test func theRequests() throws {
        #expect(try ControlRequest.parse(Array(#"{"command":"status"}"#.utf8)) == .status)
        #expect(
            try ControlRequest.parse(Array(#"{"command":"export-finished","ok":false}"#.utf8))
                == .exportFinished(ok: false))
        #expect(throws: ControlRequest.Refusal.self) {
            try ControlRequest.parse(Array(#"{"command":"export-finished","ok":"yes"}"#.utf8))
        }
        #expect(try ControlRequest.parse(Array(#"{"command":"start"}"#.utf8)) == .start(mission: nil))
        #expect(
            try ControlRequest.parse(
                Array(#"{"command":"start","mission":{"pace":"5:30","distance":5000}}"#.utf8))
                == .start(mission: Mission(targetPace: 330, allowedDeviation: 15, targetDistance: 5000)))
        #expect(
            try ControlRequest.parse(Array(#"{"command":"stop","sent_at":"2026-10-03T07:00:00Z"}"#.utf8))
                == .stop(sentAt: UTCTime.parse("2026-10-03T07:00:00Z")))
        #expect(try ControlRequest.parse(Array(#"{"command":"stop"}"#.utf8)) == .stop(sentAt: nil))
    }

    @Test(arguments: [
        ("garbage", "not a JSON object"),
        (#"{"cmd":"status"}"#, "no \"command\""),
        (#"{"command":"launch"}"#, "unknown command \"launch\""),
        (#"{"command":"status","x":1}"#, "\"x\" does not go with \"status\""),
        (
            #"{"command":"start","mission":{"pace":"5"}}"#,
            "mission: a mission needs pace (or heart_rate, or zone) and distance (or time)"
        ),
        (#"{"command":"stop","sent_at":12}"#, "sent_at: expected an ISO-8601 UTC time, got 12"),
    ])
    func refusalsSayWhatIsWrong(_ line: String, _ message: String) {
        guard case .failure(let refusal) = Self.parse(line) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(refusal.message.contains(message), "\(refusal)")
    }

    @Test func anOversizedLineIsRefused() {
        let line = #"{"command":"status","pad":""# + String(repeating: "x", count: 70_000) + #""}"#
        guard case .failure(let refusal) = Self.parse(line) else {
            Issue.record("accepted")
            return
        }
        #expect(refusal.message == "request longer than 64 KiB")
    }
}

@Suite("Control socket: clients cannot disturb the flight or each other", .serialized)
struct ControlSocketTests {
    static func serve(
        maxClients: Int = 8, idleTimeout: Double = 60, pending: Int = 256 * 1024
    ) async throws -> (ControlServer, Task<Void, any Error>, String) {
        let path = NSTemporaryDirectory() + "rw-\(UUID().uuidString.prefix(8)).sock"
        let server = ControlServer(
            path: path,
            limits: .init(maxClients: maxClients, maxPendingBytes: pending, idleTimeout: idleTimeout)
        ) { request in
            ControlReply.ok([("answered", .string("\(request)"))])
        }
        let task = Task { try await server.run() }
        while !FileManager.default.fileExists(atPath: path) { try await Task.sleep(for: .milliseconds(5)) }
        return (server, task, path)
    }

    @Test func aRequestIsAnsweredAndTheSocketIsGroupOnly() async throws {
        let (_, task, path) = try await Self.serve()
        defer { task.cancel() }
        let client = try SocketClient(path: path)
        client.send(#"{"command":"status"}"# + "\n")
        let reply = try #require(await client.nextObject())
        #expect(reply["ok"] as? Bool == true && reply["answered"] as? String == "status")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o660)
    }

    @Test func garbageAnOversizedLineAndAHungClientDoNotDisturbAnother() async throws {
        let (_, task, path) = try await Self.serve()
        defer { task.cancel() }
        let hung = try SocketClient(path: path)  // connects, says nothing
        let garbage = try SocketClient(path: path)
        garbage.send("\u{0}\u{ff}garbage\n")
        #expect(await garbage.nextObject()?["ok"] as? Bool == false)
        let huge = try SocketClient(path: path)
        huge.send(String(repeating: "y", count: 70_000))
        #expect(await huge.nextObject()?["error"] as? String == "request longer than 64 KiB")
        #expect(await huge.nextLine() == nil)  // and closed
        let good = try SocketClient(path: path)
        good.send(#"{"command":"pause"}"# + "\n")
        #expect(await good.nextObject()?["answered"] as? String == "pause")
        _ = hung
    }

    @Test func aSilentClientFreesItsSlot() async throws {
        let (_, task, path) = try await Self.serve(maxClients: 1, idleTimeout: 0.3)
        defer { task.cancel() }
        let silent = try SocketClient(path: path)
        #expect(await silent.nextLine() == nil)  // closed after 0.3 s
        let next = try SocketClient(path: path)
        next.send(#"{"command":"status"}"# + "\n")
        #expect(await next.nextObject()?["ok"] as? Bool == true)
    }

    @Test func aSlowSubscriberIsDroppedAndAFastOneKeepsUp() async throws {
        let (server, task, path) = try await Self.serve(pending: 16 * 1024)
        defer { task.cancel() }
        let slow = try SocketClient(path: path)
        var size: Int32 = 4096
        setsockopt(slow.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        slow.send(#"{"command":"subscribe"}"# + "\n")
        #expect(await slow.nextObject()?["subscribed"] as? Bool == true)
        let fast = try SocketClient(path: path)
        fast.send(#"{"command":"subscribe"}"# + "\n")
        #expect(await fast.nextObject()?["subscribed"] as? Bool == true)
        let event =
            #"{"event":"callout","callout":"SPLIT 1 KM 5:31","padding":""#
            + String(repeating: "p", count: 200) + #""}"#
        var received = 0
        for _ in 0..<2_000 {
            server.broadcast(event)
            if await fast.nextLine() != nil { received += 1 }
        }
        #expect(received == 2_000)
        // The slow one never read: it was dropped, so its socket ends (after what was sent).
        var lines = 0
        while await slow.nextLine() != nil { lines += 1 }
        #expect(lines < 2_000)
    }

    @Test func cancellationClosesTheSocketAndRemovesItsFile() async throws {
        let (_, task, path) = try await Self.serve()
        let client = try SocketClient(path: path)
        task.cancel()
        _ = try? await task.value
        #expect(await client.nextLine() == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
