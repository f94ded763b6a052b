import Dispatch
import Foundation
import RunWaySystem
import Synchronization

/// A long-running part of the daemon (gpsd reader, barometer, buttons, buzzer, engine, control
/// socket, systemd notifier), in swift-service-lifecycle's shape: `run()` does the work until
/// the task is cancelled, then cleans up and returns. A driver starts its thread in `run()` and
/// stops it on cancellation; nothing starts in `init`.
public protocol Service: Sendable {
    /// A name for logs ("gpsd", "control socket").
    var name: String { get }
    func run() async throws
}

/// Runs services together and shuts them down gracefully: on SIGTERM or SIGINT (or when one
/// service ends or fails), services are cancelled one at a time in reverse order — the last
/// started first — each finishing before the next is cancelled, so the socket and the notifier
/// go before the sensors, and the buzzer (started first) is the last to go; runwayd closes the
/// flight engine (which commits a flight in the air) after the group has ended. The small subset of swift-service-lifecycle's `ServiceGroup` that
/// runwayd needs (it cannot be fetched here).
public struct ServiceGroup: Sendable {
    public enum Ending: Sendable, Equatable {
        /// A shutdown signal arrived.
        case signal(Int32)
        /// A service returned on its own, or threw (its name and the error's words).
        case serviceEnded(String)
        case serviceFailed(String, String)
        /// The task running the group was cancelled.
        case cancelled
    }

    public let services: [any Service]
    public let signals: [Int32]
    private let log: @Sendable (String) -> Void

    public init(
        services: [any Service], signals: [Int32] = [SIGTERM, SIGINT],
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.services = services
        self.signals = signals
        self.log = log
    }

    private enum Event: Sendable {
        case signal(Int32)
        case ended(index: Int, failure: String?)
    }

    /// Runs every service; returns why the group stopped, after every service has finished.
    public func run() async -> Ending {
        let triggers = services.map { _ in Trigger() }
        // One stream, one consumer: signals and services that end arrive in the order they happen.
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let signalSources = SignalStream(signals) { continuation.yield(.signal($0)) }
        return await withTaskGroup(of: Void.self) { group in
            for (index, service) in services.enumerated() {
                let trigger = triggers[index]
                group.addTask {
                    let failure = await Self.run(service, until: trigger)
                    continuation.yield(.ended(index: index, failure: failure))
                }
            }
            // The group's own cancellation is a reason to stop too.
            let cancelled = Trigger()
            group.addTask {
                await cancelled.wait()
                continuation.yield(.signal(0))
            }
            var iterator = events.makeAsyncIterator()
            var finished = Set<Int>()
            var ending = Ending.cancelled
            await withTaskCancellationHandler {
                switch await iterator.next() {
                case .signal(let number)?: ending = number == 0 ? .cancelled : .signal(number)
                case .ended(let index, let failure)?:
                    finished.insert(index)
                    let name = services[index].name
                    ending = failure.map { .serviceFailed(name, $0) } ?? .serviceEnded(name)
                case nil: break
                }
            } onCancel: {
                cancelled.fire()
            }
            log("shutting down: \(ending)")
            // Those that ended on their own are done; the rest go in reverse order, one by one.
            for index in services.indices.reversed() where !finished.contains(index) {
                triggers[index].fire()
                while !finished.contains(index), let event = await iterator.next() {
                    if case .ended(let done, _) = event { finished.insert(done) }
                }
                log("stopped \(services[index].name)")
            }
            cancelled.fire()
            signalSources.stop()
            continuation.finish()
            await group.waitForAll()
            return ending
        }
    }

    /// Runs `service` until it returns or `trigger` fires (then it is cancelled and awaited).
    /// Returns the failure's words if it threw something other than cancellation.
    private static func run(_ service: any Service, until trigger: Trigger) async -> String? {
        await withTaskGroup(of: String??.self) { group in
            group.addTask {
                do {
                    try await service.run()
                    return .some(nil)
                } catch is CancellationError {
                    return .some(nil)
                } catch {
                    return .some("\(error)")
                }
            }
            group.addTask {
                await trigger.wait()
                return nil  // the trigger, not the service
            }
            var failure: String?
            while let result = await group.next() {
                if let serviceResult = result {
                    failure = serviceResult
                    group.cancelAll()
                    break
                }
                group.cancelAll()  // triggered: cancel the service and wait for it
            }
            await group.waitForAll()
            return failure
        }
    }

}

/// Signals delivered to a handler through dispatch sources; their default action is turned off
/// while it lives, so the first SIGTERM is a graceful shutdown, not a kill.
final class SignalStream: Sendable {
    /// Made in init, cancelled in `stop()`: only the mutex's holder touches them.
    private let sources: Mutex<[DispatchSourceSignal]>

    init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        var sources: [DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
        self.sources = Mutex(sources)
    }

    func stop() {
        sources.withLock { sources in
            for source in sources { source.cancel() }
        }
    }
}
