import Dispatch
import RunWayCore
import RunWaySimulator
import RunWaySystem
import Synchronization

// (a) Cost per fix: the computer alone, the engine on the caller's thread (a replay), and the
// engine on a thread of its own with one await per input (runwayd). main.swift prints it.
func costRun(_ scenario: Scenario) {
    var runner = ScenarioRunner(scenario)
    runner.recordsDistance = false
    runner.speedLogSeconds = 0
    var events: [SimulatedEvent] = []
    while let event = runner.next() { events.append(event) }
    let fixCount = events.filter { if case .input(.fix) = $0 { true } else { false } }.count
    let inputCount = events.count
    let clock = ContinuousClock()
    // Synchronous computer: the engine's own work.
    var best = Double.infinity
    for _ in 0..<3 {
        var computer = FlightComputer()
        let elapsed = clock.measure {
            for event in events {
                switch event {
                case .input(let input): _ = computer.handle(input)
                case .end(let sentAt): _ = computer.end(sentAt: sentAt)
                }
            }
        }
        best = min(best, seconds(elapsed))
    }
    print(
        "  \(scenario.name): \(fixCount) fixes, \(inputCount) inputs in all; computer \(format(best * 1000)) ms → "
            + "\(format(Double(fixCount) / best, 0)) fixes/s, \(format(best / Double(fixCount) * 1e9, 0)) ns per fix "
            + "(all inputs counted against the fixes)")
    // Through the actor on the caller's thread, as a replay drives it: the engine's own cost.
    var replayed = Double.infinity
    for _ in 0..<3 {
        let engine = FlightEngine(on: CallerThreadExecutor())
        let elapsed = clock.measure {
            engine.assumeIsolated { engine in
                for event in events {
                    switch event {
                    case .input(let input): engine.handle(input)
                    case .end(let sentAt): _ = engine.end(sentAt: sentAt)
                    }
                }
            }
        }
        replayed = min(replayed, seconds(elapsed))
    }
    print(
        "    through the FlightEngine actor on the caller's thread (a replay): \(format(replayed * 1000)) ms → "
            + "\(format(replayed / Double(fixCount) * 1e9, 0)) ns per fix")
    // Through the actor on a thread of its own, one await per input, as runwayd drives it: each
    // input crosses to the engine's thread and back (an eventfd wake-up and two switches).
    let executor = ThreadExecutor(name: "bench engine")
    let engine = FlightEngine(on: executor)
    let semaphore = DispatchSemaphore(value: 0)
    let box = ResultBox()
    Task {
        let start = clock.now
        for event in events {
            switch event {
            case .input(let input): await engine.handle(input)
            case .end(let sentAt): _ = await engine.end(sentAt: sentAt)
            }
        }
        box.value = seconds(clock.now - start)
        await executor.shutdown()
        semaphore.signal()
    }
    semaphore.wait()
    let actor = box.value
    print(
        "    through the FlightEngine actor on its own thread, one await per input (as runwayd): "
            + "\(format(actor * 1000)) ms → \(format(Double(fixCount) / actor, 0)) fixes/s, "
            + "\(format(actor / Double(fixCount) * 1e9, 0)) ns per fix")
}

/// A figure a task hands to the main thread, which waits on a semaphore (or gives up).
final class ResultBox: Sendable {
    private let stored = Mutex(0.0)
    var value: Double {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
