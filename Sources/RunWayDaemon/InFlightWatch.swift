import RunWayCore
import Synchronization

/// Whether a flight is in the air (takeoff, cruise, approach), as the engine's outputs last said:
/// an observer, so a thread that must not wait on the engine (the sensors') can ask at once.
final class InFlightWatch: FlightObserver, Sendable {
    private let flying = Mutex(false)

    var isFlying: Bool { flying.withLock { $0 } }

    func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        guard case .flew(_, let outputs) = event else { return }
        guard case .state(let pfd)? = outputs.last(where: { if case .state = $0 { true } else { false } })
        else { return }
        let now = [.takeoff, .cruise, .approach].contains(pfd.phase)
        flying.withLock { $0 = now }
    }
}
