import Foundation
import Synchronization

/// A serial executor with a thread of its own: an actor that returns it as its
/// `unownedExecutor` runs every job there, never on Swift's cooperative pool — what blocking
/// work (the recorder's `fdatasync`) needs. The thread starts with the executor and ends at
/// `shutdown()`, which runs the jobs already queued and returns once the thread's loop has run
/// its last job (the thread is a detached Foundation thread: it exits right after, nothing is
/// left to join); the caller awaits without blocking the pool. Every maker shuts its executor
/// down: an executor never shut down keeps its thread and eventfd.
///
/// It is a `TaskExecutor` too: a task that prefers it (`withTaskExecutorPreference`,
/// `Task(executorPreference:)`) runs its nonisolated code there, so work that must keep time
/// (the control socket's answers) does not wait for a pool that other work holds.
///
/// The queue is a `Mutex`; the thread sleeps on a `WakeSignal` (an eventfd, whose count keeps a
/// signal sent while the thread was busy, so no wake-up is lost between its look at the queue
/// and its wait).
public final class ThreadExecutor: SerialExecutor, TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var stopping = false
        var threadID: pthread_t?
    }
    private let state = Mutex(State())
    private let wake = WakeSignal()
    private let finished = Trigger()
    public let name: String

    public init(name: String) {
        self.name = name
        Thread.start(named: name) { [self] in loop() }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(job) }
        wake.signal()
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
        state.withLock { $0.stopping = true }
        wake.signal()
    }

    /// Whether the caller runs on this executor's thread.
    public var isCurrentThread: Bool {
        state.withLock { state in state.threadID.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private enum Next {
        case run(UnownedJob)
        case wait
        case end
    }

    private func loop() {
        state.withLock { $0.threadID = pthread_self() }
        while true {
            let next: Next = state.withLock { state in
                if !state.jobs.isEmpty { return .run(state.jobs.removeFirst()) }
                return state.stopping ? .end : .wait
            }
            switch next {
            case .run(let job):
                // Both: a job may come from the actor this executor isolates or from a task that
                // prefers it (SE-0417's executor that is both).
                job.runSynchronously(
                    isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
            case .wait: wake.wait(milliseconds: -1)
            case .end:
                finished.fire()
                return
            }
        }
    }
}
