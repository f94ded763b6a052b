import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// START resumes a paused flight (issue 27), and the raw log must say so: the flight stored at
/// touchdown is flown again from it. The board test found the stored flight paused from the bump
/// on PAUSE to the landing (its `pauses`, moving time and pace), though runwayd had resumed it.
@Suite("START's resume is kept in the raw log")
struct RecorderResumeTests {
    @Test func aManualPauseEndedByStartEndsThereInTheStoredFlight() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let recorder = FlightRecorder(logbook: logbook)
        var computer = FlightComputer()
        var flyingSince: Double?
        var pausedAt: Double?
        var resumedAt: Double?
        var id: Int64?
        func fly(_ input: EngineInput) {
            _ = recorder.take(.flew(input, computer.handle(input)), after: computer)
        }
        for event in ScenarioRunner.events(for: .flat5k.ending(at: 600)).events {
            switch event {
            case .input(let input):
                fly(input)
                if computer.isFlying, flyingSince == nil { flyingSince = input.time }
                if let since = flyingSince, pausedAt == nil, input.time >= since + 120 {
                    pausedAt = input.time
                    fly(.pause(at: input.time))
                } else if let paused = pausedAt, resumedAt == nil, input.time >= paused + 60 {
                    resumedAt = input.time
                    fly(.start(at: input.time, mission: nil, countdown: true))
                }
            case .end(let sentAt):
                let (result, outputs) = computer.end(sentAt: sentAt)
                let end = EngineInput.end(at: computer.now, sentAt: sentAt)
                _ = recorder.take(.flew(end, outputs + [.ended(result)]), after: computer)
                id = recorder.landingDue?.id
                _ = recorder.take(.closing, after: computer)
            }
        }
        let paused = try #require(pausedAt)
        let resumed = try #require(resumedAt)
        let flightID = try #require(id)
        let stored = try #require(try logbook.flight(id: flightID))
        let start = stored.flight.startTime
        let manual = stored.flight.pauses.filter { $0.reason == .manual }
        #expect(manual.count == 1, "\(stored.flight.pauses)")
        let pause = try #require(manual.first)
        #expect(abs(pause.start - (paused - start)) <= 1, "\(pause)")
        #expect(abs(pause.end - (resumed - start)) <= 1, "\(pause), resumed at \(resumed - start) s")
        #expect(stored.flight.elapsed - stored.flight.movingTime < 70, "moving \(stored.flight.movingTime) s")
    }
}
