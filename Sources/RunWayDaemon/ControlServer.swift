import Foundation
import RunWayControl
import RunWayCore
import RunWaySystem
import Synchronization

/// The control socket: a Unix stream socket speaking newline-delimited JSON
/// (`ControlRequest`), served by a thread of its own that polls the listening socket, the
/// clients and a wake pipe (`ControlConnections`). No client can disturb the flight, hold the
/// daemon's memory or lock out another client:
///
/// - each client has at most one request being answered; its next line is not read until the
///   reply is queued, so a client writing without reading fills its own socket, not runwayd;
/// - what a client does not read (replies and events) is held up to `maxPendingBytes`, then the
///   client is dropped and the drop logged — never waited for;
/// - each answer has `answerDeadline` (`ControlDeadline`): past it the client hears "busy", the
///   request goes on by itself, and the next request is taken;
/// - a request line must be complete within `lineDeadline` of its first byte, and a client with
///   nothing pending that says nothing for `idleTimeout` (and does not subscribe) is closed;
/// - when all `maxClients` slots are held, a newcomer takes the slot of the least useful client
///   (`ControlConnections.victim`): one trickling a line or not reading first, then the one idle
///   longest; only when every other client has a request being answered or has just connected is
///   the newcomer told "busy".
///
/// The answers are carried out on a thread of their own (`answering`), never on Swift's
/// cooperative pool: that pool has one thread per core (two on a 2-core board or CI machine),
/// and whatever else holds it — CPU-bound or blocking work elsewhere in the process — would
/// otherwise hold every answer, and its "busy" deadline too, so `runway` heard nothing at all.
///
/// The buttons do not use this socket: `ButtonService` hands its presses to the engine
/// directly, so a runner's END lands however the socket is used.
public final class ControlServer: Service, Sendable {
    public struct Limits: Sendable {
        /// 8: `runway` commands are one request each and done in milliseconds; a board has the
        /// export's done signal and a `runway watch` or two beside them.
        public var maxClients = 8
        /// 256 KiB: a state event is about 500 bytes, sent once a second, so a subscriber may fall
        /// about 8 minutes behind; 8 clients hold at most 2 MiB (runwayd's RSS is 25–43 MiB).
        public var maxPendingBytes = 256 * 1024
        /// A minute: `runway watch` subscribes and is exempt; a command's client writes at once.
        public var idleTimeout: Double = 60
        /// 10 s: `runway` writes its whole line (under 200 bytes) in one call right after
        /// connecting; the rest is slack for a loaded board. A byte every 30 s never completes.
        public var lineDeadline: Double = 10
        /// A newly connected client is not taken for a newcomer's slot until it has sent its
        /// first line or this long has passed (2 s: `runway` writes within milliseconds of
        /// connecting), so a flood of connections cannot push out a real command before it speaks.
        public var admissionGrace: Double = 2
        /// Lines answered on the socket's own thread (subscribe, refusals) per client and
        /// wake-up: 16, so a client sending thousands in one write cannot starve the others or
        /// delay SIGTERM; the rest waits for the next wake-up.
        public var linesPerWake = 16
        /// 3 s for an answer: under `ControlClient`'s 5 s timeout, so `runway` hears "busy"
        /// rather than silence when the engine is writing (`ControlDeadline`).
        public var answerDeadline: Double = 3

        public init(
            maxClients: Int = 8, maxPendingBytes: Int = 256 * 1024, idleTimeout: Double = 60,
            lineDeadline: Double = 10, admissionGrace: Double = 2, answerDeadline: Double = 3
        ) {
            self.answerDeadline = answerDeadline
            self.maxClients = maxClients
            self.maxPendingBytes = maxPendingBytes
            self.idleTimeout = idleTimeout
            self.lineDeadline = lineDeadline
            self.admissionGrace = admissionGrace
        }
    }

    /// What the server holds and what it did, for tests and diagnostics.
    public struct Counters: Sendable, Equatable {
        /// Replies and events waiting for their clients to read them, in bytes, all clients.
        public var queuedBytes = 0
        public var peakQueuedBytes = 0
        /// The most one client has had waiting unread (never more than `maxPendingBytes`).
        public var peakQueuedForOneClient = 0
        /// Request bytes read but not yet parsed, all clients (the largest seen).
        public var peakInputBytes = 0
        /// Requests handed to the handler and not yet answered (the largest number seen).
        public var peakRequestsWaiting = 0
        /// Clients dropped because what they were sent exceeded `maxPendingBytes` unread.
        public var droppedNotReading = 0
        /// Clients closed because a line was not complete within `lineDeadline`.
        public var closedIncomplete = 0
        /// Clients closed to give a newcomer their slot.
        public var evicted = 0
        /// Newcomers told "busy" (every slot held by a client that could not be taken).
        public var refusedBusy = 0
    }

    /// The state the socket thread and the handler's side share, owned by `shared`.
    struct Shared {
        var live: Set<Int> = []
        var outbox: [Int: [UInt8]] = [:]
        var waiting: Set<Int> = []
        var subscribers: Set<Int> = []
        /// Clients to close, with what is logged.
        var closing: [Int: String] = [:]
        var stopping = false
        var counters = Counters()

        /// Queues `bytes` for `id`; a client that has more than `limit` unread is dropped.
        mutating func enqueue(_ bytes: [UInt8], to id: Int, limit: Int) {
            guard live.contains(id), closing[id] == nil else { return }
            let held = outbox[id, default: []].count + bytes.count
            guard held <= limit else {
                closing[id] = "client \(id) dropped: \(held) bytes of replies and events unread"
                outbox[id] = nil
                counters.droppedNotReading += 1
                return
            }
            outbox[id, default: []] += bytes
            counters.peakQueuedForOneClient = max(counters.peakQueuedForOneClient, held)
            counters.peakQueuedBytes = max(
                counters.peakQueuedBytes, outbox.values.reduce(0) { $0 + $1.count })
        }
    }

    /// The thread every request's answer, its deadline's timer and the request loop run on:
    /// one for the process, never shut down, since a request past its deadline goes on after
    /// `run()` returns and must have somewhere to finish. The handlers suspend on the engine's
    /// or the sensors' own threads, so one thread carries every server's answers.
    static let answering = ThreadExecutor(name: "control answers")

    public let name = "control socket"
    public let path: String
    public let limits: Limits
    /// The runner's zones: a `start` request's `"zone": N` is taken from them.
    public let zones: HeartRateZones
    private let inherited: Int32?
    private let handler: @Sendable (ControlRequest) async -> String
    let log: @Sendable (String) -> Void
    let shared = Mutex(Shared())
    /// A pipe that wakes the socket thread: [read end, write end], both non-blocking.
    let wake: (read: Int32, write: Int32)
    private let listening = Trigger()
    /// Set before `listening` fires when the socket listens.
    private let listens = Mutex(false)

    /// - Parameters:
    ///   - inherited: a listening socket handed over by systemd (socket activation); nil binds
    ///     `path` itself (mode 0660).
    ///   - log: told of every client closed for misbehaving (not reading, too slow, evicted).
    ///   - handler: answers every request but `subscribe` with one reply line.
    public init(
        path: String, inherited: Int32? = nil, limits: Limits = Limits(),
        zones: HeartRateZones = .unconfigured, log: @escaping @Sendable (String) -> Void = { _ in },
        handler: @escaping @Sendable (ControlRequest) async -> String
    ) {
        self.path = path
        self.zones = zones
        self.inherited = inherited
        self.limits = limits
        self.log = log
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

    /// What the server holds now and what it has done.
    public var counters: Counters {
        shared.withLock { state in
            var counters = state.counters
            counters.queuedBytes = state.outbox.values.reduce(0) { $0 + $1.count }
            return counters
        }
    }

    /// Sends `line` to every subscriber; one that is too far behind is dropped.
    public func broadcast(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        let limit = limits.maxPendingBytes
        shared.withLock { state in
            for id in state.subscribers { state.enqueue(bytes, to: id, limit: limit) }
        }
        signal()
    }

    private func reply(_ line: String, to id: Int) {
        let limit = limits.maxPendingBytes
        shared.withLock { state in
            state.waiting.remove(id)
            state.enqueue(Array((line + "\n").utf8), to: id, limit: limit)
        }
        signal()
    }

    func signal() {
        var one: UInt8 = 1
        _ = write(wake.write, &one, 1)
    }

    /// Returns once the socket listens (true) or `run()` failed to make it (false): READY=1
    /// waits for this, and is not said for a socket that was never made.
    @discardableResult
    public func ready() async -> Bool {
        await listening.wait()
        return listens.withLock { $0 }
    }

    public func run() async throws {
        let listener: Int32
        do {
            if let inherited { listener = inherited } else { listener = try bind() }
        } catch {
            listening.fire()
            throw error
        }
        // What was bound: removed at exit only if it is still this one.
        let bound = inherited == nil ? Self.identity(path) : nil
        listens.withLock { $0 = true }
        listening.fire()
        // At most one request per client is ever waiting here (`ControlConnections`).
        let (requests, continuation) = AsyncStream.makeStream(of: (Int, ControlRequest).self)
        let stopped = Trigger()
        Thread.start(named: "control socket") { [self] in
            var connections = ControlConnections(
                server: self, listener: listener, ownsListener: inherited == nil, requests: continuation)
            connections.run()
            continuation.finish()
            stopped.fire()
        }
        let answering = Self.answering
        await withTaskExecutorPreference(answering) {
            await answer(requests, on: answering)
        }
        await stopped.wait()
        if let bound, Self.identity(path) == bound { unlink(path) }
    }

    /// Answers `requests` until they end or `run()` is cancelled, on `answering`.
    private func answer(
        _ requests: AsyncStream<(Int, ControlRequest)>, on answering: ThreadExecutor
    ) async {
        await withTaskCancellationHandler {
            let deadline = ControlDeadline(
                seconds: limits.answerDeadline, maxOutstanding: limits.maxClients, executor: answering)
            // The sensors' requests wait on the radio (a scan for its seconds): each is answered
            // beside the queue, under its own deadline, so a scan holds up nobody's status; their
            // own limiter bounds how many may be out at once. Not awaited at shutdown (a reply
            // after it goes to no client).
            let radio = ControlDeadline(
                seconds: limits.answerDeadline, maxOutstanding: limits.maxClients, executor: answering)
            for await (id, request) in requests {
                if Task.isCancelled { break }  // SIGTERM answers nothing more
                if request.answerSeconds != nil {
                    Task(executorPreference: answering) { [self] in
                        reply(await radio.answer(request, with: handler), to: id)
                    }
                    continue
                }
                let line = await deadline.answer(request, with: handler)
                reply(line, to: id)
            }
        } onCancel: {
            shared.withLock { $0.stopping = true }
            signal()
        }
    }

    /// The file at `path` (device and inode), nil when there is none.
    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// Binds and listens under a temporary name beside `path`, then renames it into place: the
    /// socket appears only once it accepts, so a client that sees it is never refused. A socket
    /// at `path` that answers is another runwayd's and is left alone (replacing it would leave
    /// that runwayd unreachable, and removing it at exit would say "not running" while it
    /// records); one that does not answer was left by a runwayd that died, and is replaced.
    private func bind() throws(ControlSocketError) -> Int32 {
        try Self.refuseIfServed(path)
        let temporary = path + "~"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(temporary.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw .pathTooLong(path: path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotListen(path: path, errno: errno) }
        unlink(temporary)
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
        guard bound == 0, listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            unlink(temporary)
            throw code == ENOENT ? .folderMissing(path: path) : .cannotListen(path: path, errno: code)
        }
        // Checked again just before the rename: another runwayd may have bound it meanwhile.
        do throws(ControlSocketError) {
            try Self.refuseIfServed(path)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            close(fd)
            unlink(temporary)
            throw .cannotListen(path: path, errno: code)
        }
        return fd
    }

    /// Throws when a socket at `path` accepts a connection: another runwayd serves it.
    public static func refuseIfServed(_ path: String) throws(ControlSocketError) {
        if answers(path) { throw .alreadyServed(path: path) }
    }

    /// True when something accepts a connection on the Unix socket at `path`.
    static func answers(_ path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}

/// Why runwayd cannot serve its control socket.
public enum ControlSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A socket at the path answers: another runwayd serves it.
    case alreadyServed(path: String)
    /// The socket's folder does not exist.
    case folderMissing(path: String)
    /// The path does not fit a Unix socket's address (107 bytes, with the temporary name's `~`).
    case pathTooLong(path: String)
    /// Making, binding or renaming the socket failed (`errno`).
    case cannotListen(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .alreadyServed(let path):
            "another runwayd answers on the control socket \(path): stop it first (systemctl stop runwayd), "
                + "or give this one its own --socket and --logbook"
        case .folderMissing(let path):
            "the control socket's folder \((path as NSString).deletingLastPathComponent) does not exist: "
                + "runwayd.service has systemd make /run/runway; by hand, make it or give --socket a path in an existing folder"
        case .pathTooLong(let path):
            "the control socket's path \(path) is too long for a Unix socket: give --socket a shorter one"
        case .cannotListen(let path, let errno):
            "cannot listen on the control socket \(path): \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }
}
