#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The serial executor of an actor that one synchronous caller drives on its own thread: a
/// replay (fly, reprocess, recovery, the bench) runs `FlightEngine` through `assumeIsolated`
/// from the thread that made this executor, so the same actor flies a replay without a thread
/// or a task of its own. Isolation is checked, not assumed: `checkIsolated()` traps on any
/// other thread, and an `await` from elsewhere (a job enqueued here) traps too, since nothing
/// would ever run it.
public final class CallerThreadExecutor: SerialExecutor {
    /// The thread that made the executor: the only one that may use its actor.
    private let owner: pthread_t

    public init() { owner = pthread_self() }

    public func enqueue(_ job: consuming ExecutorJob) {
        fatalError("an engine driven on its caller's thread was awaited from elsewhere")
    }

    public func checkIsolated() {
        precondition(pthread_equal(owner, pthread_self()) != 0, "an engine used off its caller's thread")
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
