import Dispatch
import Foundation
import Synchronization

/// Ctrl-C as a request, not a kill: the first SIGINT sets the flag (a command lands its flight
/// and prints what it has); a second one ends the process at once, as a runner expects of an
/// impatient second Ctrl-C.
final class InterruptFlag: Sendable {
    private struct State {
        var raised = false
        /// Set once in `install`, cancelled in `uninstall`.
        var source: DispatchSourceSignal?
    }
    private let state = Mutex(State())

    private init() {}

    /// Routes SIGINT to the flag (until `uninstall`).
    static func install() -> InterruptFlag {
        let flag = InterruptFlag()
        signal(SIGINT, SIG_IGN)
        flag.state.withLock { state in
            let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            source.setEventHandler { [weak flag] in
                guard let flag else { return }
                let again = flag.state.withLock { state in
                    defer { state.raised = true }
                    return state.raised
                }
                if again {
                    signal(SIGINT, SIG_DFL)
                    raise(SIGINT)
                }
            }
            source.resume()
            state.source = source
        }
        return flag
    }

    var isRaised: Bool { state.withLock { $0.raised } }

    /// Gives SIGINT back its default action.
    func uninstall() {
        state.withLock { $0.source?.cancel() }
        signal(SIGINT, SIG_DFL)
    }
}
