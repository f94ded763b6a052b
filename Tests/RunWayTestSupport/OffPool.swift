import Foundation

/// Runs blocking test work — a child process waited for, a soak's inner loop — on a thread of its
/// own and awaits it. A test that blocks instead holds one of the cooperative pool's threads
/// (two on a 2-core CI machine) for its whole length, and every async test waiting for the pool
/// meanwhile stalls: tests that measure real time (the watchdog, buttons) then fail for reasons
/// that are not theirs.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.start()
    }
}
