import RunWayCore
import RunWayHardware
import RunWaySimulator
import Testing

@testable import RunWayVoice

@Suite struct NarrationTests {
    /// Each input's outputs, as the engine hands them out (an END's with its `.ended`).
    static func outputs(of scenario: Scenario) -> [[EngineOutput]] {
        var computer = FlightComputer()
        var runner = ScenarioRunner(scenario)
        var all: [[EngineOutput]] = []
        while let event = runner.next() {
            switch event {
            case .input(let input): all.append(computer.handle(input))
            case .end(let sentAt):
                let (result, outputs) = computer.end(sentAt: sentAt)
                all.append(outputs + [.ended(result)])
            }
        }
        return all
    }

    /// The demo mission, with a tunnel, so every callout the engine has is heard.
    static var demoWithTunnel: Scenario {
        var scenario = Scenario.demoMission
        scenario.signalGaps = [Scenario.SignalGap(start: 600, seconds: 20)]
        return scenario
    }

    /// 60 m and END: not recorded.
    static var shortRun: Scenario {
        var scenario = Scenario.demoMission.ending(at: 60)
        scenario.stops = []
        scenario.legs = [Scenario.SpeedLeg(from: 0, speed: 3)]
        return scenario
    }

    /// A heart-rate mission over 12 minutes of moving time: 150 bpm, then 168 from 7 minutes.
    static var heartRateMission: Scenario {
        var scenario = Scenario.heartRateEdge(offset: -5, minutes: 14, stepAt: 420, stepTo: 168)
        scenario.mission = Mission(pace: nil, heartRate: .init(low: 140, high: 155), goal: .duration(720))
        return scenario
    }

    /// HR HIGH says the heart rate it judged and the band; a time goal's MINIMUMS the seconds to go.
    @Test func aHeartRateMissionsPhrasesCarryTheirNumbers() throws {
        var narration = Narration()
        let cues = Self.outputs(of: Self.heartRateMission).flatMap { narration.cues(for: $0) }
        let phrases = cues.compactMap(\.phrase)
        let high = try #require(phrases.first { if case .heartRateHigh = $0 { true } else { false } })
        guard case .heartRateHigh(let bpm, let low, let highEdge) = high else { return }
        #expect(low == 140 && highEdge == 155)
        #expect((bpm ?? 0) > 158)  // above the band by the entry margin: that is why it sounded
        #expect(cues.first { $0.name == "HR HIGH" }?.urgent == true)
        let togo = phrases.compactMap { if case .minimumsTime(let s) = $0 { s } else { nil } }
        #expect(togo.count == 1 && togo[0] > 0 && togo[0] <= 30)
        #expect(!phrases.contains { if case .minimums = $0 { true } else { false } })
    }

    /// Narration and Annunciation over the same flight: the same patterns, urgency, names and
    /// order; the phrase-only cues are the only additions.
    @Test(arguments: ["demo", "tunnel", "stops", "short", "heart-rate"])
    func theBuzzerHearsExactlyWhatAnnunciationGave(_ name: String) {
        let scenario: Scenario =
            switch name {
            case "demo": .demoMission
            case "tunnel": Self.demoWithTunnel
            case "stops": .stops5k
            case "heart-rate": Self.heartRateMission
            default: Self.shortRun
            }
        var annunciation = Annunciation()
        var narration = Narration()
        var cueCount = 0
        for outputs in Self.outputs(of: scenario) {
            let sounds = annunciation.sounds(for: outputs)
            let cues = narration.cues(for: outputs)
            cueCount += cues.count
            let buzzed = cues.filter { $0.pattern != nil }
            #expect(buzzed.map(\.name) == sounds.map(\.name))
            #expect(buzzed.map(\.pattern) == sounds.map(\.pattern))
            #expect(buzzed.map(\.urgent) == sounds.map(\.urgent))
            #expect(cues.allSatisfy { $0.phrase != nil })
        }
        #expect(cueCount > 3)
    }

    @Test func theDemoMissionsPhrasesCarryTheirNumbers() throws {
        var narration = Narration()
        let cues = Self.outputs(of: Self.demoWithTunnel).flatMap { narration.cues(for: $0) }
        let phrases = cues.compactMap(\.phrase)
        #expect(phrases.prefix(5) == [.gpsReady, .countdown(3), .countdown(2), .countdown(1), .rotate])
        let splits = phrases.compactMap { phrase -> (Int, Double?)? in
            if case .split(let order, let time, let pace) = phrase {
                #expect(time == pace)
                return (order, pace)
            }
            return nil
        }
        #expect(splits.map(\.0) == [1, 2, 3, 4, 5])
        #expect(splits.allSatisfy { ($0.1 ?? 0) > 250 && ($0.1 ?? 0) < 450 })
        let alert = try #require(
            phrases.first { if case .sinkRate = $0 { true } else { false } })
        if case .sinkRate(let pace, let target) = alert {
            #expect(target == 330)
            #expect((pace ?? 0) > 345)  // slower than the band's slow edge: that is why it sounded
        }
        let minimums = phrases.compactMap { if case .minimums(let togo) = $0 { togo } else { nil } }
        #expect(minimums.count == 1 && minimums[0] > 0 && minimums[0] <= 50)
        #expect(phrases.contains(.signalLost) && phrases.contains(.gpsBack))
        let missionComplete = phrases.compactMap { if case .missionComplete(let t) = $0 { t } else { nil } }
        #expect(missionComplete.count == 1 && missionComplete[0] > 1500)
        // The run ends 180 m past 5 km: the last split, then TOUCHDOWN, are said last.
        let tail = Array(cues.suffix(2))
        guard case .lastSplit(let metres, _, let pace)? = tail.first?.phrase,
            case .touchdown(let distance, let time, let average)? = tail.last?.phrase
        else {
            Issue.record("the flight ends on \(tail.map(\.name))")
            return
        }
        #expect(tail[0].pattern == nil)
        #expect(metres > 100 && metres < 1000 && pace != nil)
        #expect(distance > 5100 && time > 1500 && average != nil)
    }

    @Test func aTooShortLandingSaysSoInsteadOfTouchdown() {
        var narration = Narration()
        let cues = Self.outputs(of: Self.shortRun).flatMap { narration.cues(for: $0) }
        #expect(cues.last?.phrase == .tooShort)
        #expect(cues.last?.pattern == .tooShort)
        #expect(!cues.contains { $0.phrase?.kind == .touchdown || $0.phrase?.kind == .lastSplit })
    }

    @Test func theStatusIsSaidOnlyWhileFlyingWithTheMissionsMargin() throws {
        var narration = Narration()
        #expect(narration.statusCue(at: 0) == nil)
        let mission = Mission(targetPace: 330, allowedDeviation: 15, targetDistance: 5000)
        var pfd = PFD.idle(at: 100)
        pfd.phase = .cruise
        pfd.distance = 2000
        pfd.movingTime = 640
        pfd.pace = 320
        _ = narration.cues(for: [.began(rotate: 10, pressedAt: 7, mission: mission), .state(pfd)])
        let cue = try #require(narration.statusCue(at: 100))
        #expect(cue.phrase == .status(distance: 2000, time: 640, pace: 320, ahead: 20))
        #expect(cue.pattern == nil && cue.time == 100)
        pfd.phase = .touchdown
        _ = narration.cues(for: [.state(pfd)])
        #expect(narration.statusCue(at: 200) == nil)
    }

    @Test func cuesFromOutsideTheEngine() {
        let fault = Narration.cue(for: .storage)
        #expect(fault.pattern == BuzzerPattern.pattern(for: .storage) && fault.urgent)
        #expect(fault.phrase == .fault(.storage) && fault.priority == .warning)
        #expect(Narration.exportCue(ok: true).pattern == .exportDone)
        #expect(Narration.exportCue(ok: false).pattern == .exportFailed)
        #expect(!Narration.exportCue(ok: false).urgent)
        #expect(Narration.holdConfirmed.phrase == nil && Narration.holdConfirmed.urgent)
        #expect(Narration.holdConfirmed.priority == .warning)
    }

    /// The engine's BAROMETER LOST is the barometer fault seen in flight: the fault's own cue
    /// says the words with what to do, so the error buzzes only (it was said twice).
    @Test func anErrorCalloutBuzzesWithoutWords() {
        var narration = Narration()
        let cues = narration.cues(for: [.callout(TimedCallout(.error("BAROMETER LOST"), at: 5))])
        #expect(cues.map(\.phrase) == [nil])
        #expect(cues.first?.pattern == BuzzerPattern.pattern(for: .error("BAROMETER LOST")))
        #expect(cues.first?.time == 5)
    }

    /// PAUSE pressed while the signal is lost resumes the flight: "resume", not "GPS back".
    @Test func gpsBackOnlyWhenTheSignalIsBack() {
        var narration = Narration()
        var pfd = PFD.idle(at: 10)
        pfd.phase = .cruise
        _ = narration.cues(for: [.callout(TimedCallout(.signalLost, at: 10)), .state(pfd)])
        let manual = narration.cues(for: [.callout(TimedCallout(.resume, at: 20)), .state(pfd)])
        #expect(manual.map(\.phrase) == [.resume])
        _ = narration.cues(for: [.callout(TimedCallout(.signalLost, at: 30)), .state(pfd)])
        pfd.signal = .good
        let back = narration.cues(for: [.callout(TimedCallout(.resume, at: 40)), .state(pfd)])
        #expect(back.map(\.phrase) == [.gpsBack])
    }

    /// The signal came back on a runner standing at a light: the engine turns the pause into a
    /// stop then ("you stopped"), and the runner setting off a minute later hears "resume", not
    /// "GPS back" (the GPS was back long before).
    @Test func aSignalPauseSettledAsAStopResumesAsAStop() {
        var narration = Narration()
        var pfd = PFD.idle(at: 10)
        pfd.phase = .cruise
        _ = narration.cues(for: [.callout(TimedCallout(.signalLost, at: 10)), .state(pfd)])
        pfd.signal = .good
        let settled = narration.cues(for: [.callout(TimedCallout(.pause(.stopped), at: 25)), .state(pfd)])
        #expect(settled.map(\.phrase) == [.pause(.stopped)])
        let resumed = narration.cues(for: [.callout(TimedCallout(.resume, at: 80)), .state(pfd)])
        #expect(resumed.map(\.phrase) == [.resume])
    }
}
