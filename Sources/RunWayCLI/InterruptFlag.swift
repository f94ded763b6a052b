import Dispatch
import Foundation

/// Ctrl-C as a request, not a kill: the first SIGINT sets the flag (a command lands its flight
/// and prints what it has); a second one ends the process at once, as a runner expects of an
/// impatient second Ctrl-C.
final class InterruptFlag: Sendable {
    // Sendable: `raised` is only read and written under `lock`; the signal source is created
    // once in `install` and only cancelled in `deinit`.
    private let lock = NSLock()
    nonisolated(unsafe) private var raised = false
    nonisolated(unsafe) private var source: DispatchSourceSignal?

    private init() {}

    /// Routes SIGINT to the flag (until `uninstall`).
    static func install() -> InterruptFlag {
        let flag = InterruptFlag()
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak flag] in
            guard let flag else { return }
            let again = flag.lock.withLock {
                defer { flag.raised = true }
                return flag.raised
            }
            if again {
                signal(SIGINT, SIG_DFL)
                raise(SIGINT)
            }
        }
        source.resume()
        flag.source = source
        return flag
    }

    var isRaised: Bool { lock.withLock { raised } }

    /// Gives SIGINT back its default action.
    func uninstall() {
        source?.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
