import RunWayCore
import RunWaySystem
import Synchronization

/// Button lines pressed by hand, in real time: a line-level stand-in for libgpiod where a board
/// has no GPIO chip (tests, the simulated board). `press`/`release` set a line's level and queue
/// an edge stamped with `CLOCK_MONOTONIC`, as the kernel stamps GPIO events; the reader waits on
/// an eventfd with a relative timeout, exactly like `GpiodButtonLines`.
public final class ManualGPIOLines: StoppableGPIOLines, Sendable {
    private struct State {
        var levels: [Bool]
        var edges: [(index: Int, time: Double)] = []
        /// Level changes still to come, in time order (from `tap`).
        var scheduled: [(time: Double, index: Int, pressed: Bool)] = []
        var stopped = false

        /// Moves the scheduled changes that are due into the levels and the edge queue.
        mutating func applyDue() {
            let now = MonotonicInstant.now.seconds
            while let next = scheduled.first, next.time <= now {
                scheduled.removeFirst()
                levels[next.index] = next.pressed
                edges.append((next.index, next.time))
            }
        }
    }
    private let state: Mutex<State>
    private let wake = WakeSignal()

    public init(buttons: Int) {
        state = Mutex(State(levels: Array(repeating: false, count: buttons)))
    }

    public var now: Double { MonotonicInstant.now.seconds }

    public func press(_ index: Int) { set(index, pressed: true) }
    public func release(_ index: Int) { set(index, pressed: false) }

    /// A press held for exactly `seconds`: the release is stamped `seconds` after the press,
    /// however late whoever called this gets to run again.
    public func tap(_ index: Int, holding seconds: Double) {
        state.withLock { state in
            let now = MonotonicInstant.now.seconds
            state.levels[index] = true
            state.edges.append((index, now))
            state.scheduled.append((now + seconds, index, false))
            state.scheduled.sort { $0.time < $1.time }
        }
        wake.signal()
    }

    private func set(_ index: Int, pressed: Bool) {
        state.withLock { state in
            state.levels[index] = pressed
            state.edges.append((index, MonotonicInstant.now.seconds))
        }
        wake.signal()
    }

    public func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }

    public func waitForEdges(until deadline: Double?) -> [(index: Int, time: Double)]? {
        let (ready, due): (Bool, Double?) = state.withLock { state in
            state.applyDue()
            return (state.stopped || !state.edges.isEmpty, state.scheduled.first?.time)
        }
        if !ready {
            let wakeAt = [deadline, due].compactMap { $0 }.min()
            let timeout = wakeAt.map { Int32(max(0, ($0 - now) * 1000).rounded(.up)) } ?? -1
            wake.sleep(milliseconds: timeout)
        }
        return state.withLock { state in
            state.applyDue()
            if state.stopped { return nil }
            defer { state.edges.removeAll() }
            return state.edges
        }
    }

    public func isPressed(_ index: Int) -> Bool {
        state.withLock { state in
            state.applyDue()
            return state.levels[index]
        }
    }
}
