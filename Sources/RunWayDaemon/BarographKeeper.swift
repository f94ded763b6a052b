import RunWayControl
import RunWayCore
import Synchronization

/// The board's barograph, kept by the barometer service from its idle readings (in flight the
/// pressure follows the runner's climbs, not the weather) and read by `status` for the
/// checklist's WEATHER line; also whether the barometer answers.
final class BarographKeeper: Sendable {
    private struct State {
        var barograph = Barograph()
        var answering: Bool?
    }

    private let state = Mutex(State())

    func record(pascals: Double, at seconds: Double) {
        state.withLock {
            $0.barograph.record(pascals: pascals, at: seconds)
            $0.answering = true
        }
    }

    func lost() { state.withLock { $0.answering = false } }

    func heard() { state.withLock { $0.answering = true } }

    /// What `status` says: the barometer's state, the newest pressure and the tendency.
    func snapshot(at seconds: Double) -> BoardStatus.Barometer? {
        state.withLock { state in
            guard let answering = state.answering else { return nil }
            return BoardStatus.Barometer(
                answering: answering, pascals: state.barograph.latest,
                weather: state.barograph.reading(at: seconds))
        }
    }
}
