import Foundation
import RunWayCore
import RunWayDaemon
import RunWaySimulator
import RunWayStore
import RunWaySystem
import Testing

/// The recorder's reports, as the engine's observers hear them.
final class ReportLog: FlightObserver, @unchecked Sendable {
    // @unchecked Sendable: `reports` is only touched on the engine's executor (where observers
    // are called) and read by the test after the engine has closed.
    private(set) var reports: [FlightRecorder.Report] = []

    func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        if case .news(let report as FlightRecorder.Report) = event { reports.append(report) }
    }
}

/// The pipeline: inputs into the engine, the recorder an observer, its reports news that the
/// others hear; END an input like the others.
@Suite("Flight pipeline: the engine, its recorder and the landing, with nobody wiring them")
struct FlightPipelineTests {
    static func logbookPath() -> String {
        NSTemporaryDirectory() + "runway-session-\(UUID().uuidString).sqlite"
    }

    @Test func aSimulatedRunIsRecordedAndStoredWithoutAnyoneWiringItByHand() async throws {
        let path = Self.logbookPath()
        let reports = ReportLog()
        let board = TestEngine(logbook: try Logbook(path: path), source: "test", observers: [reports])
        var ended: EndResult?
        for event in ScenarioRunner.events(for: .walker.ending(at: 600)).events {
            switch event {
            case .input(let input): await board.engine.handle(input)
            case .end(let sentAt):
                for case .ended(let result) in await board.engine.handle(.end(at: event.time, sentAt: sentAt))
                {
                    ended = result
                }
            }
        }
        await board.close()
        let flight = try #require(ended?.flight)
        let logbook = try Logbook(path: path)
        let id = try #require(try logbook.entries().first?.id)
        #expect(reports.reports == [.stored(.saved(id))])
        let stored = try #require(try logbook.flight(id: id))
        // The flight saved is the touchdown smoother's over the raw log, the live one beside it.
        let saved = Logbook.saved(
            flight, inputs: try logbook.rawInputs(flight: id), configuration: EngineConfiguration())
        #expect(stored.flight == saved)
        #expect(saved.distanceMethod == .smoothed && saved.liveDistance == flight.distance)
        #expect(stored.source == "test")
        // The row opened at ROTATE, not at the first input after it.
        #expect(stored.flight.startTime == flight.startTime)
    }

    @Test func endIsAnInputAndObeysTheStaleStopRule() async {
        let board = TestEngine()
        let engine = board.engine
        await engine.handle(.start(at: 100, mission: nil, countdown: false))
        let stale = await engine.handle(.end(at: 101, sentAt: 99))
        #expect(stale.contains(.ended(.ignoredStale)))
        #expect(await engine.isFlying)
        let timeless = await engine.handle(.end(at: 102, sentAt: nil))
        #expect(timeless.contains { if case .ended(.landed) = $0 { true } else { false } })
        #expect(await !engine.isFlying)
        await board.close()
    }

    @Test func aFlightUnder100mIsRemovedAndSaidSo() async throws {
        let path = Self.logbookPath()
        let reports = ReportLog()
        let board = TestEngine(logbook: try Logbook(path: path), observers: [reports])
        await board.engine.handle(.start(at: 100, mission: nil, countdown: false))
        await board.engine.handle(.tick(110))
        await board.engine.handle(.end(at: 111, sentAt: nil))
        await board.close()
        #expect(reports.reports == [.stored(.notRecorded)])
        #expect(try Logbook(path: path).entries().isEmpty)
    }

    /// Shutdown in the air: the recorder commits the raw log and the flight stays open, so a
    /// restart within the window continues it.
    @Test func closingInTheAirCommitsAndLeavesTheFlightOpen() async throws {
        let path = Self.logbookPath()
        // The engine (and the recorder's hold on the journal) ends with this function.
        func flyAndShutDown() async throws -> Int64 {
            let board = TestEngine(logbook: try Logbook(path: path))
            await board.engine.handle(.start(at: 100, mission: nil, countdown: false))
            for t in 1...3 {
                let at = Coordinate(latitude: 37, longitude: 127 + Double(t) * 3e-5)
                await board.engine.handle(
                    .fix(Fix(time: 100 + Double(t), coordinate: at, horizontalAccuracy: 10, speed: 3)))
            }
            let id = try #require(await board.engine.flightID)
            await board.close()
            return id
        }
        let id = try await flyAndShutDown()
        let logbook = try Logbook(path: path)  // takes the journal in
        #expect(try logbook.rawInputs(flight: id).count == 3)
        #expect(try logbook.entries().map(\.status) == [.flying])
    }

    /// runwayd's engine runs on a thread of its own, so `fdatasync` never blocks the pool.
    @Test func theBoardsEngineRunsOnAThreadOfItsOwn() async throws {
        let board = TestEngine(logbook: try Logbook(path: Self.logbookPath()))
        let executor = board.executor
        #expect(await board.engine.onThread(executor))
        await board.engine.handle(.start(at: 100, mission: nil, countdown: false))
        #expect(await board.engine.isFlying)
        await board.close()
    }
}

extension FlightEngine {
    func onThread(_ executor: ThreadExecutor) -> Bool { executor.isCurrentThread }
}
