import RunWayCore
import RunWaySystem
import Synchronization

/// The buzzer's line, as the driver drives it: libgpiod's output line on the board, a recording
/// line in tests.
public protocol BuzzerLine: AnyObject {
    func set(_ on: Bool)
}

extension GpiodOutputLine: BuzzerLine {}

/// Plays patterns on a buzzer line from a thread of its own: `play` may be called from any thread
/// (the flight engine's, the buttons') and never waits; `run` is the thread's body, sleeping
/// until the pattern's next level change or a new pattern, and switching the line off when
/// stopped — whatever was playing.
///
/// The waits are `poll` timeouts on an eventfd, relative and on the monotonic clock: the board's
/// wall clock jumps when it is first set, and a wait on it could leave the buzzer sounding.
public final class BuzzerDriver: Sendable {
    private struct State {
        var player = PatternPlayer()
        var stopped = false
        var played = 0
    }
    /// The line is not here: it is touched by `run`'s thread only.
    private let state = Mutex(State())
    private let wake = WakeSignal()
    private let clock: @Sendable () -> MonotonicInstant

    public init(clock: @escaping @Sendable () -> MonotonicInstant = { .now }) {
        self.clock = clock
    }

    /// Queues a pattern (an urgent one pre-empts a split or countdown beep).
    public func play(_ pattern: BuzzerPattern, urgent: Bool = false) {
        state.withLock { state in
            state.player.play(pattern, urgent: urgent, at: clock().seconds)
            state.played += 1
        }
        wake.signal()
    }

    /// Patterns queued so far.
    public var patternsPlayed: Int { state.withLock { $0.played } }

    /// Makes `run` switch the line off and return (from any thread; also before `run` starts).
    public func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }

    /// Drives `line` until `stop()`; the line is off when this returns.
    public func run(line: any BuzzerLine) {
        var level = false
        line.set(false)
        defer { line.set(false) }
        while true {
            let (on, next, done): (Bool, Double?, Bool) = state.withLock { state in
                _ = state.player.advance(to: clock().seconds)
                return (state.player.isOn, state.player.nextChange, state.stopped)
            }
            if done { return }
            if on != level {
                line.set(on)
                level = on
            }
            let timeout = next.map { Int32(max(0, min(60, $0 - clock().seconds)) * 1000 + 1) } ?? -1
            wake.sleep(milliseconds: timeout)
        }
    }
}
