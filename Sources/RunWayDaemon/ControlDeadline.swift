import RunWayControl
import Synchronization

/// The control socket's requests are answered one at a time, in the order they came, and most
/// go through the flight engine, whose thread may be busy for seconds (a touchdown storing a
/// long flight, the journal taken into SQLite on a slow card). So each answer gets a deadline:
/// past it the client is told that runwayd is busy and the request is still being carried out,
/// and the next request (another client's `status`, the export's done signal) is taken. A
/// request past its deadline goes on by itself (an END is never called off), and at most
/// `maxOutstanding` of them may, so an engine that hangs cannot pile up work without bound:
/// beyond that a request is refused at once.
final class ControlDeadline: Sendable {
    let seconds: Double
    let maxOutstanding: Int
    /// Where the handler and the timer run (nil: Swift's cooperative pool). The timer must not
    /// wait behind whatever holds the pool, or "busy" comes no sooner than the answer.
    let executor: (any TaskExecutor)?
    private let outstanding = Mutex(0)

    init(seconds: Double, maxOutstanding: Int, executor: (any TaskExecutor)? = nil) {
        self.seconds = seconds
        self.maxOutstanding = maxOutstanding
        self.executor = executor
    }

    /// Requests still being carried out (answered or not).
    var running: Int { outstanding.withLock { $0 } }

    static func busy(_ seconds: Double) -> String {
        ControlReply.refused(
            "runwayd is busy (writing the logbook) and did not answer within \(Int(seconds)) s; the request "
                + "is still being carried out: ask again with runway status")
    }

    static let overloaded = ControlReply.refused(
        "runwayd is busy with earlier requests that have not finished; try again in a few seconds")

    /// `handler`'s answer to `request`, or the busy reply once `seconds` (or the request's own
    /// `answerSeconds`, a scan's) pass.
    func answer(_ request: ControlRequest, with handler: @escaping @Sendable (ControlRequest) async -> String)
        async
        -> String
    {
        let admitted = outstanding.withLock { count in
            guard count < maxOutstanding else { return false }
            count += 1
            return true
        }
        guard admitted else { return Self.overloaded }
        let first = FirstAnswer()
        let limit = request.answerSeconds ?? seconds
        return await withCheckedContinuation { continuation in
            first.wait(continuation)
            // The timer ends as soon as the answer comes: a flood of quick requests leaves no
            // sleeping tasks behind.
            let timer = Task(executorPreference: executor) {
                try await Task.sleep(for: .milliseconds(Int(limit * 1000)))
                first.give(Self.busy(limit))
            }
            Task(executorPreference: executor) {
                let line = await handler(request)
                self.outstanding.withLock { $0 -= 1 }
                timer.cancel()
                first.give(line)
            }
        }
    }
}

/// Whichever answer comes first resumes the waiting request; the other is dropped.
private final class FirstAnswer: Sendable {
    private let waiting = Mutex<CheckedContinuation<String, Never>?>(nil)

    func wait(_ continuation: CheckedContinuation<String, Never>) { waiting.withLock { $0 = continuation } }

    func give(_ line: String) { waiting.withLock { $0.take() }?.resume(returning: line) }
}
