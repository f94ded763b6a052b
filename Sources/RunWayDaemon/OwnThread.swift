import Foundation
import RunWaySystem

/// Runs `body` — a driver's blocking loop — on a thread of its own and waits for it to end
/// without holding a thread of Swift's cooperative pool. Cancellation calls `stop`, which must
/// make `body` return (also when it is called before `body` began); the thread is always joined:
/// this returns only once `body` has.
func runOnOwnThread(
    _ name: String, _ body: @escaping @Sendable () -> Void, stop: @escaping @Sendable () -> Void
) async {
    await withTaskCancellationHandler {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.start(named: name) {
                body()
                done.resume()
            }
        }
    } onCancel: {
        stop()
    }
}

/// Waits until the task is cancelled: a service whose device is missing stays in the group
/// (the flight goes on without it) instead of ending it.
func waitForCancellation() async {
    let never = Trigger()
    await never.wait()  // a cancelled wait fires the trigger and returns
}
