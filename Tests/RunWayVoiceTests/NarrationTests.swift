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

    /// Narration and Annunciation over the same flight: the same patterns, urgency, names and
    /// order; the phrase-only cues are the only additions.
    @Test(arguments: ["demo", "tunnel", "stops", "short"])
    func theBuzzerHearsExactlyWhatAnnunciationGave(_ name: String) {
        let scenario: Scenario =
            switch name {
            case "demo": .demoMission
            case "tunnel": Self.demoWithTunnel
            case "stops": .stops5k
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

    @Test func anErrorCalloutIsSaidAsItsText() {
        var narration = Narration()
        let cues = narration.cues(for: [.callout(TimedCallout(.error("BAROMETER LOST"), at: 5))])
        #expect(cues.map(\.phrase) == [.text("BAROMETER LOST")])
        #expect(cues.first?.time == 5)
    }
}
