import Foundation

/// The control socket: a Unix stream socket speaking newline-delimited JSON
/// (`ControlRequest`), served by a thread of its own that polls the listening socket, the
/// clients and a wake eventfd. No client can disturb the flight or another client: at most
/// `maxClients` at once (one more is told "busy" and closed), a line is at most 64 KiB, a client
/// that says nothing for `idleTimeout` seconds (and does not subscribe) is closed, a reply or
/// event that a client does not read is held up to `maxPendingBytes` and then the client is
/// dropped — never waited for. The requests go, in order, to `handler` on Swift's side.
public final class ControlServer: Service, @unchecked Sendable {
    // @unchecked Sendable: the mutable state (`outbox`, `subscribers`, `closing`) is only touched
    // while `lock` is held; the socket loop's own state lives on its thread; the rest is immutable.
    public let name = "control socket"
    public let path: String
    public let maxClients: Int
    public let maxPendingBytes: Int
    public let idleTimeout: Double
    private let inherited: Int32?
    private let handler: @Sendable (ControlRequest) async -> String
    private let lock = NSLock()
    private var outbox: [Int: [UInt8]] = [:]
    private var subscribers: Set<Int> = []
    private var closing: Set<Int> = []
    /// A pipe that wakes the socket thread: [read end, write end], both non-blocking.
    private let wake: (read: Int32, write: Int32)
    private let listening = Trigger()

    /// - Parameters:
    ///   - inherited: a listening socket handed over by systemd (socket activation); nil binds
    ///     `path` itself (mode 0660).
    ///   - handler: answers every request but `subscribe` with one reply line.
    public init(
        path: String, inherited: Int32? = nil, maxClients: Int = 8, maxPendingBytes: Int = 256 * 1024,
        idleTimeout: Double = 60, handler: @escaping @Sendable (ControlRequest) async -> String
    ) {
        self.path = path
        self.inherited = inherited
        self.maxClients = maxClients
        self.maxPendingBytes = maxPendingBytes
        self.idleTimeout = idleTimeout
        self.handler = handler
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for fd in ends { Self.makeNonBlocking(fd) }
        wake = (ends[0], ends[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Sends `line` to every subscriber; one that is too far behind is dropped.
    public func broadcast(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        lock.withLock {
            for id in subscribers { enqueueLocked(bytes, to: id) }
        }
        signal()
    }

    private func enqueueLocked(_ bytes: [UInt8], to id: Int) {
        guard !closing.contains(id) else { return }
        outbox[id, default: []] += bytes
        if outbox[id, default: []].count > maxPendingBytes {
            closing.insert(id)  // a slow subscriber is dropped, never waited for
            outbox[id] = nil
        }
    }

    private func reply(_ line: String, to id: Int) {
        lock.withLock { enqueueLocked(Array((line + "\n").utf8), to: id) }
        signal()
    }

    private func signal() {
        var one: UInt8 = 1
        _ = write(wake.write, &one, 1)
    }

    /// Returns once the socket listens (or `run()` failed to make it): READY waits for this.
    public func ready() async { await listening.wait() }

    public func run() async throws {
        let listener: Int32
        do {
            listener = try inherited ?? bind()
        } catch {
            listening.fire()
            throw error
        }
        listening.fire()
        let (requests, continuation) = AsyncStream.makeStream(of: (Int, ControlRequest).self)
        let stopped = Trigger()
        let thread = Thread { [self] in
            loop(listener: listener, requests: continuation)
            continuation.finish()
            stopped.fire()
        }
        thread.name = "control socket"
        thread.start()
        await withTaskCancellationHandler {
            for await (id, request) in requests {
                let line = await handler(request)
                reply(line, to: id)
            }
        } onCancel: {
            _ = lock.withLock { closing.insert(-1) }  // -1: the server itself
            signal()
        }
        await stopped.wait()
        if inherited == nil { unlink(path) }
    }

    /// Binds and listens under a temporary name beside `path`, then renames it into place: the
    /// socket appears only once it accepts, so a client that sees it is never refused.
    private func bind() throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let temporary = path + "~"
        unlink(temporary)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(temporary.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw POSIXError(.ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let old = umask(0o117)  // 0660
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        umask(old)
        guard bound == 0, listen(fd, 16) == 0, rename(temporary, path) == 0 else {
            let code = errno
            close(fd)
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return fd
    }

    private struct Client {
        var fd: Int32
        var input: [UInt8] = []
        var lastHeard: ContinuousClock.Instant
    }

    private func loop(listener: Int32, requests: AsyncStream<(Int, ControlRequest)>.Continuation) {
        var clients: [Int: Client] = [:]
        var nextID = 0
        let clock = ContinuousClock()
        func drop(_ id: Int) {
            if let client = clients.removeValue(forKey: id) { close(client.fd) }
            lock.withLock {
                outbox[id] = nil
                subscribers.remove(id)
                closing.remove(id)
            }
        }
        defer {
            for id in Array(clients.keys) { drop(id) }
            if inherited == nil { close(listener) }
        }
        while true {
            // Write what is pending; close what is marked.
            let (pending, toClose, stop) = lock.withLock { (outbox, closing, closing.contains(-1)) }
            if stop { return }
            for id in toClose where id >= 0 { drop(id) }
            for (id, bytes) in pending where !bytes.isEmpty {
                guard let client = clients[id] else { continue }
                let n = bytes.withUnsafeBytes {
                    send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK {
                    drop(id)
                } else if n > 0 {
                    lock.withLock { outbox[id]?.removeFirst(n) }
                }
            }
            var fds = [
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            ]
            let order = Array(clients.keys)
            for id in order {
                let wantsOut = lock.withLock { !(outbox[id]?.isEmpty ?? true) }
                fds.append(
                    pollfd(
                        fd: clients[id]!.fd, events: Int16(POLLIN) | (wantsOut ? Int16(POLLOUT) : 0),
                        revents: 0))
            }
            // A client's idle time is checked every second; with none connected, nothing is
            // due until a connection or a wake-up (an idle board sleeps).
            let timeout: Int32 = clients.isEmpty ? -1 : 1000
            guard poll(&fds, nfds_t(fds.count), timeout) >= 0 || errno == EINTR else { return }
            if fds[0].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while read(wake.read, &drained, 64) > 0 {}
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let fd = accept(listener, nil, nil)
                if fd >= 0 {
                    Self.makeNonBlocking(fd)
                    if clients.count >= maxClients {
                        let busy = Array(
                            (ControlReply.refused("busy: \(maxClients) clients already") + "\n").utf8)
                        _ = busy.withUnsafeBytes {
                            send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                        }
                        close(fd)
                    } else {
                        clients[nextID] = Client(fd: fd, lastHeard: clock.now)
                        nextID += 1
                    }
                }
            }
            for (slot, id) in order.enumerated() {
                let revents = fds[slot + 2].revents
                guard revents != 0, var client = clients[id] else { continue }
                if revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    let n = chunk.withUnsafeMutableBytes {
                        recv(client.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                    }
                    if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                        drop(id)
                        continue
                    }
                    if n > 0 {
                        client.input += chunk.prefix(n)
                        client.lastHeard = clock.now
                    }
                    while let newline = client.input.firstIndex(of: 10) {
                        let line = Array(client.input[..<newline])
                        client.input.removeSubrange(...newline)
                        if line.allSatisfy({ $0 == 32 || $0 == 13 }) { continue }
                        do {
                            let request = try ControlRequest.parse(line)
                            if request == .subscribe {
                                lock.withLock {
                                    subscribers.insert(id)
                                    enqueueLocked(
                                        Array((ControlReply.ok([("subscribed", .bool(true))]) + "\n").utf8),
                                        to: id)
                                }
                            } else {
                                requests.yield((id, request))
                            }
                        } catch {
                            lock.withLock {
                                enqueueLocked(Array((ControlReply.refused("\(error)") + "\n").utf8), to: id)
                            }
                        }
                    }
                    if client.input.count > ControlRequest.maxLineBytes {
                        let refusal = Array((ControlReply.refused("request longer than 64 KiB") + "\n").utf8)
                        _ = refusal.withUnsafeBytes {
                            send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                        }
                        clients[id] = client
                        drop(id)
                        continue
                    }
                    clients[id] = client
                }
            }
            // A silent client that does not subscribe frees its slot after `idleTimeout`.
            let now = clock.now
            for (id, client) in clients where client.lastHeard.duration(to: now) > .seconds(idleTimeout) {
                let subscribed = lock.withLock { subscribers.contains(id) }
                if !subscribed { drop(id) }
            }
        }
    }
}
