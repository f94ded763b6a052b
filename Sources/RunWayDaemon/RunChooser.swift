import RunWayControl
import RunWayCore
import Synchronization

/// The preflight choice of run (`RunChoice`, issue 27), shared by the buttons that change it,
/// the socket's START that flies it and `status` that shows it. A lock owns it: each holder only
/// reads or steps it, never waits inside.
final class RunChooser: Sendable {
    private let state: Mutex<RunChoice>

    init(_ choice: RunChoice) {
        state = Mutex(choice)
    }

    var chosen: ConfiguredRun { state.withLock { $0.chosen } }
    /// Every run the choice cycles through.
    var runs: [ConfiguredRun] { state.withLock { $0.runs } }

    /// The next run, and its place in the list (1 for the first).
    func next() -> (run: ConfiguredRun, position: Int) {
        state.withLock { choice in
            let run = choice.next()
            return (run, choice.position)
        }
    }
}
