import CGPS
import Foundation
import RunWayCore

/// The buzzer's line, as the driver drives it: libgpiod's output line on the board, a recording
/// line in tests.
public protocol BuzzerLine: AnyObject {
    func set(_ on: Bool)
}

extension GpiodOutputLine: BuzzerLine {}

/// Plays patterns on a buzzer line from a thread of its own: `play` may be called from any thread
/// (the flight session's, the buttons') and never waits; `run` is the thread's body, sleeping
/// until the pattern's next level change or a new pattern, and switching the line off when
/// stopped — whatever was playing.
///
/// The waits are `poll` timeouts on an eventfd, relative and on the monotonic clock: the board's
/// wall clock jumps when it is first set, and a wait on it could leave the buzzer sounding.
public final class BuzzerDriver: @unchecked Sendable {
    // @unchecked Sendable: `player`, `stopped` and `played` are only touched while `lock` is
    // held; `wake` is an eventfd, safe from any thread; the line is touched by `run`'s thread only.
    private let lock = NSLock()
    private var player = PatternPlayer()
    private var stopped = false
    private var played = 0
    private let wake = WakeSignal()
    private let clock: @Sendable () -> MonotonicInstant

    public init(clock: @escaping @Sendable () -> MonotonicInstant = { .now }) {
        self.clock = clock
    }

    /// Queues a pattern (an urgent one pre-empts a split or countdown beep).
    public func play(_ pattern: BuzzerPattern, urgent: Bool = false) {
        lock.withLock {
            player.play(pattern, urgent: urgent, at: clock().seconds)
            played += 1
        }
        wake.signal()
    }

    /// Patterns queued so far.
    public var patternsPlayed: Int { lock.withLock { played } }

    /// Makes `run` switch the line off and return (from any thread; also before `run` starts).
    public func stop() {
        lock.withLock { stopped = true }
        wake.signal()
    }

    /// Drives `line` until `stop()`; the line is off when this returns.
    public func run(line: any BuzzerLine) {
        var level = false
        line.set(false)
        defer { line.set(false) }
        while true {
            let (on, next, done): (Bool, Double?, Bool) = lock.withLock {
                _ = player.advance(to: clock().seconds)
                return (player.isOn, player.nextChange, stopped)
            }
            if done { return }
            if on != level {
                line.set(on)
                level = on
            }
            let timeout = next.map { Int32(max(0, min(60, $0 - clock().seconds)) * 1000 + 1) } ?? -1
            _ = rw_poll2(-1, wake.fd, timeout)
            rw_eventfd_drain(wake.fd)
        }
    }
}
