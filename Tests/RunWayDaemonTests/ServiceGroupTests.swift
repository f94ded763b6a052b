import Foundation
import RunWayDaemon
import Testing

/// Records what the services did, in order.
final class Journal: @unchecked Sendable {
    // @unchecked Sendable: `lines` is only touched while `lock` is held.
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// Runs until cancelled, then takes `cleanup` to finish (as a session committing its raw log).
struct Sleeper: Service {
    let name: String
    let journal: Journal
    var cleanup: Duration = .zero
    var failAfter: Duration?

    func run() async throws {
        journal.add("start \(name)")
        if let failAfter {
            try await Task.sleep(for: failAfter)
            journal.add("fail \(name)")
            throw POSIXError(.EIO)
        }
        while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        try? await Task.sleep(for: cleanup)  // cancelled: this sleep returns at once, so spin
        let until = ContinuousClock.now + cleanup
        while ContinuousClock.now < until { await Task.yield() }
        journal.add("stop \(name)")
    }
}

@Suite("Service group: graceful shutdown in reverse order", .serialized)
struct ServiceGroupTests {
    @Test func sigtermStopsTheServicesLastFirstEachBeforeTheNext() async throws {
        let journal = Journal()
        let group = ServiceGroup(
            services: [
                Sleeper(name: "buzzer", journal: journal), Sleeper(name: "gpsd", journal: journal),
                Sleeper(name: "session", journal: journal, cleanup: .milliseconds(100)),
            ], signals: [SIGUSR2])
        let running = Task { await group.run() }
        while journal.all.count < 3 { try await Task.sleep(for: .milliseconds(5)) }
        kill(getpid(), SIGUSR2)
        let ending = await running.value
        #expect(ending == .signal(SIGUSR2))
        #expect(journal.all.suffix(3) == ["stop session", "stop gpsd", "stop buzzer"])
    }

    @Test func aFailingServiceStopsTheOthersAndSaysWhy() async {
        let journal = Journal()
        let group = ServiceGroup(
            services: [
                Sleeper(name: "buzzer", journal: journal),
                Sleeper(name: "barometer", journal: journal, failAfter: .milliseconds(50)),
                Sleeper(name: "control", journal: journal),
            ], signals: [])
        let ending = await group.run()
        guard case .serviceFailed(let name, _) = ending else {
            Issue.record("expected a failure, got \(ending)")
            return
        }
        #expect(name == "barometer")
        #expect(journal.all.suffix(2) == ["stop control", "stop buzzer"])
    }

    @Test func cancellingTheGroupStopsEverything() async throws {
        let journal = Journal()
        let group = ServiceGroup(
            services: [Sleeper(name: "a", journal: journal), Sleeper(name: "b", journal: journal)],
            signals: [])
        let running = Task { await group.run() }
        while journal.all.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        running.cancel()
        _ = await running.value
        #expect(Set(journal.all.suffix(2)) == ["stop a", "stop b"])
    }
}
