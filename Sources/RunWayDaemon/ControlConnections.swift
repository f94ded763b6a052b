import Foundation
import RunWayControl
import RunWaySystem

/// The control socket's thread: its clients, what each has sent, and the rules that keep any one
/// of them from holding the daemon (`ControlServer`'s list). Lives on that thread alone; what it
/// shares with the handler's side is in `ControlServer.shared`.
///
/// Each wake-up does a bounded amount of work per client — one `recv` of 4 KiB, at most
/// `linesPerWake` lines, one `send` — so no client can keep the thread from the others or from
/// seeing that the server is stopping.
struct ControlConnections {
    struct Client {
        let fd: Int32
        var input: [UInt8] = []
        /// When the client last sent anything.
        var lastHeard: ContinuousClock.Instant
        /// When the client last did something useful: connected, completed a line, or read all
        /// it was sent. The client whose progress is oldest gives up its slot first.
        var lastProgress: ContinuousClock.Instant
        let connected: ContinuousClock.Instant
        /// When the first byte of the line still incomplete arrived (nil: none is).
        var lineStarted: ContinuousClock.Instant?
        /// The client has sent a line: the admission grace is over.
        var spoke = false
        /// The client shut its writing side: it is closed once answered.
        var readEnded = false

        var hasLine: Bool { input.contains(10) }
    }

    let server: ControlServer
    let listener: Int32
    let ownsListener: Bool
    let requests: AsyncStream<(Int, ControlRequest)>.Continuation
    var clients: [Int: Client] = [:]
    var nextID = 0
    let clock = ContinuousClock()

    init(
        server: ControlServer, listener: Int32, ownsListener: Bool,
        requests: AsyncStream<(Int, ControlRequest)>.Continuation
    ) {
        self.server = server
        self.listener = listener
        self.ownsListener = ownsListener
        self.requests = requests
    }

    var limits: ControlServer.Limits { server.limits }

    mutating func run() {
        defer {
            for id in Array(clients.keys) { drop(id) }
            if ownsListener { close(listener) }
        }
        while true {
            let (closing, stopping) = server.shared.withLock { ($0.closing, $0.stopping) }
            if stopping { return }
            for (id, reason) in closing { drop(id, reason: reason) }
            flush()
            expire(at: clock.now)
            let (fds, ids) = pollSet()
            var polled = fds
            // Idle times and line deadlines are checked at least every half second; with no
            // client, nothing is due until a connection or a wake-up (an idle board sleeps).
            let tick = Int32(max(10, min(500, limits.lineDeadline * 500, limits.idleTimeout * 500)))
            let pendingLines = clients.contains { id, client in client.hasLine && !isWaiting(id) }
            let timeout: Int32 = pendingLines ? 0 : clients.isEmpty ? -1 : tick
            guard (try? Poll.wait(&polled, timeout: timeout)) != nil else { return }
            if polled[0].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while read(server.wake.read, &drained, 64) > 0 {}
            }
            for (slot, id) in ids.enumerated() where polled[slot + 2].revents != 0 {
                receive(id, revents: polled[slot + 2].revents)
            }
            // Lines are taken up before a newcomer is admitted: a client whose request has
            // arrived is being answered, and is never the one that makes room.
            for id in clients.keys.sorted() { takeLines(of: id) }
            publishInput()
            if polled[1].revents & Int16(POLLIN) != 0 { admit() }
        }
    }

    private func isWaiting(_ id: Int) -> Bool { server.shared.withLock { $0.waiting.contains(id) } }

    private func send(_ line: String, to fd: Int32) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes {
            Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
    }

    /// Closes `id`; a reason is logged.
    mutating func drop(_ id: Int, reason: String? = nil) {
        if let client = clients.removeValue(forKey: id) { close(client.fd) }
        server.shared.withLock { state in
            state.live.remove(id)
            state.outbox[id] = nil
            state.subscribers.remove(id)
            state.closing[id] = nil
        }
        if let reason { server.log("control socket: \(reason)") }
    }

    /// The wake pipe, the listener, then each client: for input only when it may send its next
    /// request, for output while something waits for it; a client wanting neither is not polled.
    private func pollSet() -> ([pollfd], [Int]) {
        var fds = [
            pollfd(fd: server.wake.read, events: Int16(POLLIN), revents: 0),
            pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
        ]
        let (outbox, waiting) = server.shared.withLock { ($0.outbox, $0.waiting) }
        let ids = Array(clients.keys)
        for id in ids {
            let client = clients[id]!
            let reads = !client.readEnded && !client.hasLine && !waiting.contains(id)
            let writes = !(outbox[id]?.isEmpty ?? true)
            let events = (reads ? Int16(POLLIN) : 0) | (writes ? Int16(POLLOUT) : 0)
            fds.append(pollfd(fd: events == 0 ? -1 : client.fd, events: events, revents: 0))
        }
        return (fds, ids)
    }

    /// One `send` per client with something queued; a client that has read everything it was
    /// sent has made progress.
    private mutating func flush() {
        let pending = server.shared.withLock { $0.outbox }
        for (id, bytes) in pending where !bytes.isEmpty {
            guard let client = clients[id] else { continue }
            let n = bytes.withUnsafeBytes {
                Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n < 0 && errno != EAGAIN && errno != EWOULDBLOCK {
                drop(id)
            } else if n > 0 {
                let empty = server.shared.withLock { state -> Bool in
                    state.outbox[id]?.removeFirst(n)
                    return state.outbox[id]?.isEmpty ?? true
                }
                let now = clock.now
                if empty { clients[id]?.lastProgress = now }
            }
        }
    }

    /// One `recv` of at most 4 KiB.
    private mutating func receive(_ id: Int, revents: Int16) {
        guard var client = clients[id], revents & Int16(POLLIN | POLLHUP | POLLERR) != 0,
            !client.readEnded, !client.hasLine
        else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n: Int
        do throws(Errno) {
            n = try chunk.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in
                    try FileDescriptor(rawValue: client.fd).receive(into: bytes, flags: Int32(MSG_DONTWAIT))
                }
            }.get()
        } catch {
            if error == .wouldBlock { return }
            return drop(id)
        }
        let now = clock.now
        if n == 0 {
            client.readEnded = true  // answered first if a request is waiting, then closed
        } else {
            if client.input.isEmpty { client.lineStarted = now }
            client.input += chunk.prefix(n)
            client.lastHeard = now
        }
        clients[id] = client
        if !client.hasLine && client.input.count > ControlRequest.maxLineBytes {
            send(ControlReply.refused("request longer than 64 KiB"), to: client.fd)
            drop(id)
        }
    }

    /// Up to `linesPerWake` complete lines of `id`, stopping at a request handed to the handler
    /// (the next is read once it is answered).
    private mutating func takeLines(of id: Int) {
        guard var client = clients[id], !isWaiting(id) else { return }
        defer { clients[id] = client }
        let limit = limits.maxPendingBytes
        for _ in 0..<limits.linesPerWake {
            guard let newline = client.input.firstIndex(of: 10) else { break }
            let line = Array(client.input[..<newline])
            client.input.removeSubrange(...newline)
            // What is left of the input began with this wake-up's bytes: it gets a whole deadline.
            client.lineStarted = client.input.isEmpty ? nil : clock.now
            if line.allSatisfy({ $0 == 32 || $0 == 13 }) { continue }
            client.spoke = true
            client.lastProgress = clock.now
            do {
                let request = try ControlRequest.parse(line, zones: server.zones)
                if request == .subscribe {
                    server.shared.withLock { state in
                        state.subscribers.insert(id)
                        state.enqueue(
                            Array((ControlReply.ok([("subscribed", .bool(true))]) + "\n").utf8), to: id,
                            limit: limit)
                    }
                    continue
                }
                server.shared.withLock { state in
                    state.waiting.insert(id)
                    state.counters.peakRequestsWaiting = max(
                        state.counters.peakRequestsWaiting, state.waiting.count)
                }
                requests.yield((id, request))
                return
            } catch {
                server.shared.withLock {
                    $0.enqueue(Array((ControlReply.refused("\(error)") + "\n").utf8), to: id, limit: limit)
                }
            }
        }
    }

    private func publishInput() {
        let held = clients.values.reduce(0) { $0 + $1.input.count }
        server.shared.withLock { $0.counters.peakInputBytes = max($0.counters.peakInputBytes, held) }
    }

    /// The line deadline, the idle minute, and a client that has finished sending and been
    /// answered.
    private mutating func expire(at now: ContinuousClock.Instant) {
        let (waiting, subscribers, outbox) = server.shared.withLock {
            ($0.waiting, $0.subscribers, $0.outbox)
        }
        for (id, client) in clients where !waiting.contains(id) {
            let unsent = !(outbox[id]?.isEmpty ?? true)
            if let started = client.lineStarted, !client.hasLine,
                started.duration(to: now) > .seconds(limits.lineDeadline)
            {
                send(
                    ControlReply.refused("request not completed within \(Int(limits.lineDeadline)) s"),
                    to: client.fd)
                server.shared.withLock { $0.counters.closedIncomplete += 1 }
                drop(
                    id,
                    reason:
                        "client \(id) closed: a request line not completed within \(limits.lineDeadline) s")
            } else if client.readEnded && !client.hasLine && !unsent {
                drop(id)
            } else if !subscribers.contains(id), client.input.isEmpty, !unsent,
                client.lastHeard.duration(to: now) > .seconds(limits.idleTimeout)
            {
                drop(id)  // a silent client frees its slot after the idle timeout
            }
        }
    }

    /// Accepts one connection: into a free slot, into the slot of the least useful client, or
    /// told busy when no client can be taken.
    private mutating func admit() {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return }
        ControlServer.makeNonBlocking(fd)
        if clients.count >= limits.maxClients {
            // Counted before the client is told, so whoever reads the reply sees the count.
            guard let victim = victim(at: clock.now) else {
                server.shared.withLock { $0.counters.refusedBusy += 1 }
                send(ControlReply.refused("busy: \(limits.maxClients) clients already"), to: fd)
                close(fd)
                return
            }
            server.shared.withLock { $0.counters.evicted += 1 }
            send(
                ControlReply.refused("closed to make room: all \(limits.maxClients) slots were held"),
                to: clients[victim]!.fd)
            drop(victim, reason: "client \(victim) closed to make room for a new one (all slots held)")
        }
        let now = clock.now
        clients[nextID] = Client(fd: fd, lastHeard: now, lastProgress: now, connected: now)
        server.shared.withLock { _ = $0.live.insert(nextID) }
        nextID += 1
    }

    /// The client whose slot a newcomer takes: never one whose request is being answered, nor one
    /// just connected that has not spoken yet (its first line is on its way). Of the rest: first a
    /// client that misbehaves (trickles a line, or does not read what it is sent), then one idle,
    /// then a subscriber that reads; within each, the one whose last progress is oldest.
    func victim(at now: ContinuousClock.Instant) -> Int? {
        let (waiting, subscribers, outbox) = server.shared.withLock {
            ($0.waiting, $0.subscribers, $0.outbox)
        }
        let grace = Duration.seconds(limits.admissionGrace)
        func rank(_ id: Int, _ client: Client) -> Int {
            if client.lineStarted != nil || !(outbox[id]?.isEmpty ?? true) { return 0 }
            return subscribers.contains(id) ? 2 : 1
        }
        return
            clients
            .filter { id, client in
                !waiting.contains(id) && (client.spoke || client.connected.duration(to: now) > grace)
            }
            .min { a, b in
                (rank(a.key, a.value), a.value.lastProgress) < (rank(b.key, b.value), b.value.lastProgress)
            }?.key
    }
}
