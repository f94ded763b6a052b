import Foundation
import RunWayCore
import RunWayDaemon
import RunWaySimulator
import RunWayStore
import Testing

/// The pipeline as a type: engine → recorder → reports, END an input like the others.
@Suite("Flight session: the engine, the recorder and the landing in one type")
struct FlightSessionTests {
    static func logbookPath() -> String {
        NSTemporaryDirectory() + "runway-session-\(UUID().uuidString).sqlite"
    }

    @Test func aSimulatedRunIsRecordedAndStoredWithoutAnyoneWiringItByHand() throws {
        let logbook = try Logbook(path: Self.logbookPath())
        var reports: [FlightSession.Report] = []
        let session = FlightSession(logbook: logbook, source: "test") { reports.append($0) }
        var ended: EndResult?
        for event in ScenarioRunner.events(for: .walker.ending(at: 600)).events {
            switch event {
            case .input(let input): session.handle(input)
            case .end(let sentAt):
                for case .ended(let result) in session.handle(.end(at: event.time, sentAt: sentAt)) {
                    ended = result
                }
            }
        }
        let flight = try #require(ended?.flight)
        let id = try #require(try logbook.entries().first?.id)
        #expect(reports == [.stored(.saved(id))])
        let stored = try #require(try logbook.flight(id: id))
        #expect(stored.flight == flight)
        #expect(stored.source == "test")
        // The row opened at ROTATE, not at the first input after it.
        #expect(stored.flight.startTime == flight.startTime)
    }

    @Test func endIsAnInputAndObeysTheStaleStopRule() {
        let session = FlightSession(logbook: nil)
        session.handle(.start(at: 100, mission: nil, countdown: false))
        let stale = session.handle(.end(at: 101, sentAt: 99))
        #expect(stale.contains(.ended(.ignoredStale)))
        #expect(session.computer.isFlying)
        let timeless = session.handle(.end(at: 102, sentAt: nil))
        #expect(timeless.contains { if case .ended(.landed) = $0 { true } else { false } })
        #expect(!session.computer.isFlying)
    }

    @Test func aFlightUnder100mIsRemovedAndSaidSo() throws {
        let logbook = try Logbook(path: Self.logbookPath())
        var reports: [FlightSession.Report] = []
        let session = FlightSession(logbook: logbook) { reports.append($0) }
        session.handle(.start(at: 100, mission: nil, countdown: false))
        session.handle(.tick(110))
        session.handle(.end(at: 111, sentAt: nil))
        #expect(reports == [.stored(.notRecorded)])
        #expect(try logbook.entries().isEmpty)
    }

    /// The live session runs on its own thread, so `fdatasync` never blocks the cooperative pool.
    @Test func theLiveSessionRunsOnAThreadOfItsOwn() async throws {
        let session = LiveFlightSession(logbook: try Logbook(path: Self.logbookPath()))
        #expect(await session.runsOnItsOwnThread)
        await session.handle(.start(at: 100, mission: nil, countdown: false))
        #expect(await session.isFlying)
        await session.close()
    }
}
