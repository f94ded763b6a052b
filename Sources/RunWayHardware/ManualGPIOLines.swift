import CGPS
import Foundation
import RunWayCore

/// Button lines pressed by hand, in real time: a line-level stand-in for libgpiod where a board
/// has no GPIO chip (tests, the simulated board). `press`/`release` set a line's level and queue
/// an edge stamped with `CLOCK_MONOTONIC`, as the kernel stamps GPIO events; the reader waits on
/// an eventfd with a relative timeout, exactly like `GpiodButtonLines`.
public final class ManualGPIOLines: StoppableGPIOLines, @unchecked Sendable {
    // @unchecked Sendable: `levels`, `edges` and `stopped` are only touched while `lock` is held;
    // `wake` is an eventfd, safe from any thread.
    private let lock = NSLock()
    private var levels: [Bool]
    private var edges: [(index: Int, time: Double)] = []
    /// Level changes still to come, in time order (from `tap`).
    private var scheduled: [(time: Double, index: Int, pressed: Bool)] = []
    private var stopped = false
    private let wake = WakeSignal()

    public init(buttons: Int) {
        levels = Array(repeating: false, count: buttons)
    }

    public var now: Double { MonotonicInstant.now.seconds }

    public func press(_ index: Int) { set(index, pressed: true) }
    public func release(_ index: Int) { set(index, pressed: false) }

    /// A press held for exactly `seconds`: the release is stamped `seconds` after the press,
    /// however late whoever called this gets to run again.
    public func tap(_ index: Int, holding seconds: Double) {
        lock.withLock {
            let now = MonotonicInstant.now.seconds
            levels[index] = true
            edges.append((index, now))
            scheduled.append((now + seconds, index, false))
            scheduled.sort { $0.time < $1.time }
        }
        wake.signal()
    }

    /// Moves the scheduled changes that are due into the levels and the edge queue (lock held).
    private func applyDue() {
        let now = MonotonicInstant.now.seconds
        while let next = scheduled.first, next.time <= now {
            scheduled.removeFirst()
            levels[next.index] = next.pressed
            edges.append((next.index, next.time))
        }
    }

    private func set(_ index: Int, pressed: Bool) {
        lock.withLock {
            levels[index] = pressed
            edges.append((index, MonotonicInstant.now.seconds))
        }
        wake.signal()
    }

    public func stop() {
        lock.withLock { stopped = true }
        wake.signal()
    }

    public func waitForEdges(until deadline: Double?) -> [(index: Int, time: Double)]? {
        let (ready, due): (Bool, Double?) = lock.withLock {
            applyDue()
            return (stopped || !edges.isEmpty, scheduled.first?.time)
        }
        if !ready {
            let wakeAt = [deadline, due].compactMap { $0 }.min()
            let timeout = wakeAt.map { Int32(max(0, ($0 - now) * 1000).rounded(.up)) } ?? -1
            _ = rw_poll2(-1, wake.fd, timeout)
            rw_eventfd_drain(wake.fd)
        }
        return lock.withLock {
            applyDue()
            if stopped { return nil }
            defer { edges.removeAll() }
            return edges
        }
    }

    public func isPressed(_ index: Int) -> Bool {
        lock.withLock {
            applyDue()
            return levels[index]
        }
    }
}
