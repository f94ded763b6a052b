import RunWayCore
import Synchronization

/// Whether a flight is in the air (takeoff, cruise, approach), as the engine's outputs last said:
/// an observer, so a thread that must not wait on the engine (the sensors') can ask at once.
final class InFlightWatch: FlightObserver, Sendable {
    private let flying = Mutex((now: false, takeoffs: 0))

    var isFlying: Bool { flying.withLock { $0.now } }
    /// How many flights have begun (a takeoff is a change from not flying to flying): what tells
    /// one flight from the next.
    var takeoffs: Int { flying.withLock { $0.takeoffs } }

    /// Flying or not, as the engine's last state said.
    func set(flying now: Bool) {
        flying.withLock { state in
            if now, !state.now { state.takeoffs += 1 }
            state.now = now
        }
    }

    func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        guard case .flew(_, let outputs) = event else { return }
        guard case .state(let pfd)? = outputs.last(where: { if case .state = $0 { true } else { false } })
        else { return }
        set(flying: [.takeoff, .cruise, .approach].contains(pfd.phase))
    }
}
