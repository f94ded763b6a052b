import Foundation

/// A serial executor with a thread of its own: an actor that returns it as its
/// `unownedExecutor` runs every job there, never on Swift's cooperative pool — what blocking
/// work (the recorder's `fdatasync`) needs. The thread starts with the executor and ends at
/// `shutdown()`, which returns once the thread has finished: no thread is left unjoined, and
/// the caller awaits without blocking the pool.
public final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked Sendable: `jobs`, `stopping` and `threadID` are read and written only while
    // `condition`'s lock is held; `finished` is a Trigger (itself locked); `name` is immutable.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    private let finished = Trigger()
    private var threadID: pthread_t?
    public let name: String

    public init(name: String) {
        self.name = name
        let thread = Thread { [self] in loop() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Runs the jobs already enqueued, then ends the thread; returns when it has ended.
    public func shutdown() async {
        requestStop()
        await finished.wait()
    }

    private func requestStop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    /// Whether the caller runs on this executor's thread.
    public var isCurrentThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        return threadID.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    private func loop() {
        condition.lock()
        threadID = pthread_self()
        condition.unlock()
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                finished.fire()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}
