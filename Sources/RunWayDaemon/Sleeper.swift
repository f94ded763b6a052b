import Foundation
import RunWayCore
import RunWayHardware
import RunWaySystem
import Synchronization

/// Sleeps for the daemon's periodic services (the notifier, the battery, the no-fix watch) that
/// wake the process only when a sleep is due. `Task.sleep` on Linux keeps libdispatch's event
/// loop waking once a second for as long as any sleep is pending (measured with strace: one
/// `epoll_wait` return a second for a 30 s `Task.sleep`), which alone would break an idle
/// board's budget of two wake-ups a second.
///
/// One thread holds the pending deadlines and `poll`s an eventfd with the nearest as its timeout
/// (relative, monotonic). It starts with the first sleep and ends when none is left, so an idle
/// process with nothing pending has no thread here.
final class Sleeper: Sendable {
    private struct State {
        var pending: [Int: (deadline: Double, continuation: CheckedContinuation<Void, Error>)] = [:]
        var nextID = 0
        var running = false
    }
    private let state = Mutex(State())
    private let wake = WakeSignal()

    static let shared = Sleeper()

    /// Returns after `seconds` (monotonic), or throws `CancellationError` as soon as the task is
    /// cancelled.
    func sleep(for seconds: Double) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let start: Bool = state.withLock { state in
                    state.pending[id] = (MonotonicInstant.now.seconds + seconds, continuation)
                    defer { state.running = true }
                    return !state.running
                }
                // Cancelled before the sleep was registered: the handler found nothing to end.
                if Task.isCancelled { cancel(id) }
                if start {
                    Thread.start(named: "sleeper") { [self] in loop() }
                } else {
                    wake.signal()
                }
            }
        } onCancel: {
            cancel(id)
        }
    }

    private func cancel(_ id: Int) {
        let entry = state.withLock { $0.pending.removeValue(forKey: id) }
        entry?.continuation.resume(throwing: CancellationError())
        wake.signal()
    }

    private func loop() {
        while true {
            let now = MonotonicInstant.now.seconds
            let (due, next): ([CheckedContinuation<Void, Error>], Double?) = state.withLock { state in
                let ids = state.pending.filter { $0.value.deadline <= now }.map(\.key)
                let due = ids.compactMap { state.pending.removeValue(forKey: $0)?.continuation }
                let next = state.pending.values.map(\.deadline).min()
                if next == nil && due.isEmpty { state.running = false }
                return (due, next)
            }
            for continuation in due { continuation.resume() }
            guard let next else {
                if due.isEmpty { return }  // nothing pending: the thread ends (restarted on demand)
                continue
            }
            let timeout = Int32(max(0, min(3_600, next - MonotonicInstant.now.seconds)) * 1000 + 1)
            wake.wait(milliseconds: timeout)
        }
    }
}
