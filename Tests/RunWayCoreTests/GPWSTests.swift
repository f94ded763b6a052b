import RunWayCore
import Testing

@Suite("GPWS: arming, SINK RATE, OVERSPEED, MINIMUMS, episodes")
struct GPWSTests {
    let mission = Mission(targetPace: 330, allowedDeviation: 15, targetDistance: 5000)
    let band = Mission.PaceBand(targetPace: 330, allowedDeviation: 15)

    /// The verdict without its average or confirmation, to test the rules alone.
    func immediate() -> PaceAlertMonitor.Configuration {
        var configuration = PaceAlertMonitor.Configuration()
        configuration.verdictSeconds = 1e-9
        configuration.confirmSeconds = 0
        configuration.settleSeconds = 0
        return configuration
    }

    func speed(_ pace: Double) -> Double { 1000 / pace }

    @Test func sinkRateDoesNotSoundBeforeTheTargetBandIsFirstReached() {
        var monitor = PaceAlertMonitor(band: band, configuration: immediate())
        #expect(monitor.update(speed: speed(400), at: 0).isEmpty)
        #expect(!monitor.isArmed)
        #expect(monitor.update(speed: speed(335), at: 1).isEmpty)
        #expect(monitor.isArmed)
        #expect(monitor.update(speed: speed(400), at: 2) == [.began(.sinkRate, at: 2)])
    }

    @Test func anEpisodeBeginsClearlyOutsideTheBandAndEndsClearlyInside() {
        var monitor = PaceAlertMonitor(band: band, configuration: immediate())
        _ = monitor.update(speed: speed(330), at: 0)
        // 5:45 is the edge: 4 s/km past it is still not an episode; past 5 s/km (the margin) is.
        #expect(monitor.update(speed: speed(349), at: 1).isEmpty)
        #expect(monitor.update(speed: speed(351), at: 2) == [.began(.sinkRate, at: 2)])
        // Back to the edge, and just inside: still the same episode.
        #expect(monitor.update(speed: speed(345), at: 3).isEmpty)
        #expect(monitor.update(speed: speed(342), at: 4).isEmpty)
        #expect(monitor.state == .alerting(.sinkRate))
        // 4 s/km inside: over (its end is reported once no return follows within a minute).
        #expect(monitor.update(speed: speed(340.9), at: 5).isEmpty)
        #expect(monitor.state == .normal)
        #expect(monitor.update(speed: speed(330), at: 64).isEmpty)
        #expect(monitor.update(speed: speed(330), at: 65) == [.ended(.sinkRate, at: 5)])
        // OVERSPEED likewise on the fast side (5:15 is that edge).
        #expect(monitor.update(speed: speed(311), at: 70).isEmpty)
        #expect(monitor.update(speed: speed(309.5), at: 71) == [.began(.overspeed, at: 71)])
    }

    @Test func aVerdictMustHoldBeforeItSoundsAndIsBackdated() {
        var configuration = immediate()
        configuration.confirmSeconds = 3
        var monitor = PaceAlertMonitor(band: band, configuration: configuration)
        _ = monitor.update(speed: speed(330), at: 0)
        #expect(monitor.update(speed: speed(360), at: 10).isEmpty)
        #expect(monitor.update(speed: speed(330), at: 11).isEmpty)  // a blip: no alert
        #expect(monitor.update(speed: speed(360), at: 20).isEmpty)
        #expect(monitor.update(speed: speed(361), at: 23) == [.began(.sinkRate, at: 20)])
    }

    @Test func aQuickReturnOfTheSameKindIsTheSameEpisode() {
        var monitor = PaceAlertMonitor(band: band, configuration: immediate())
        _ = monitor.update(speed: speed(330), at: 0)
        #expect(monitor.update(speed: speed(360), at: 10) == [.began(.sinkRate, at: 10)])
        #expect(monitor.update(speed: speed(330), at: 20).isEmpty)  // back in the band …
        #expect(monitor.update(speed: speed(360), at: 50).isEmpty)  // … and out again: no callout
        #expect(monitor.update(speed: speed(330), at: 60).isEmpty)
        // A minute later with no return: the one episode ends, at its last end.
        #expect(monitor.update(speed: speed(330), at: 120) == [.ended(.sinkRate, at: 60)])
        // The other kind is a new episode at once, closing a held-back end first.
        #expect(monitor.update(speed: speed(360), at: 130) == [.began(.sinkRate, at: 130)])
        _ = monitor.update(speed: speed(330), at: 140)
        #expect(
            monitor.update(speed: speed(300), at: 150) == [
                .ended(.sinkRate, at: 140), .began(.overspeed, at: 150),
            ])
    }

    @Test func aLongEpisodeIsSaidAgainSlowlyNeverContinuously() {
        var monitor = PaceAlertMonitor(band: band, configuration: immediate())
        _ = monitor.update(speed: speed(330), at: 0)
        var changes: [PaceAlertMonitor.Change] = []
        for t in stride(from: 1.0, through: 600, by: 1) {
            changes += monitor.update(speed: speed(380), at: t)
        }
        #expect(changes.first == .began(.sinkRate, at: 1))
        #expect(changes.dropFirst().allSatisfy { if case .repeated = $0 { true } else { false } })
        #expect(changes.count == 1 + 599 / 180)
        // A pause or the mission's end silences it at once.
        #expect(monitor.silence(at: 601) == [.ended(.sinkRate, at: 601)])
    }

    @Test func theVerdictJudgesAnAverageNotOneJumpyReading() {
        var monitor = PaceAlertMonitor(band: band)
        for t in stride(from: 0.0, through: 60, by: 1) { _ = monitor.update(speed: speed(330), at: t) }
        // Five seconds at 5:55/km, 10 s/km past the edge, move the 15-second average only part
        // of the way: not an episode.
        var changes: [PaceAlertMonitor.Change] = []
        for t in stride(from: 61.0, through: 65, by: 1) {
            changes += monitor.update(speed: speed(355), at: t)
        }
        for t in stride(from: 66.0, through: 120, by: 1) {
            changes += monitor.update(speed: speed(330), at: t)
        }
        #expect(changes.isEmpty, "\(changes)")
        #expect(abs((monitor.verdictPace ?? 0) - 330) < 1)
        // A pace clearly off the band (12 s/km past the edge) is told without waiting for it.
        for t in stride(from: 121.0, through: 124, by: 1) {
            changes += monitor.update(speed: speed(390), at: t)
        }
        #expect(changes == [.began(.sinkRate, at: 121)])
    }

    @Test func standingOrGettingUpToSpeedIsNotJudged() {
        var monitor = PaceAlertMonitor(band: band)
        for t in stride(from: 0.0, through: 30, by: 1) { _ = monitor.update(speed: speed(330), at: t) }
        // Slowing to a stop, standing, and accelerating away: no verdict until 10 s after the
        // runner is going again.
        var changes: [PaceAlertMonitor.Change] = []
        for (t, v) in [(31.0, 2.0), (32, 1.2), (33, 0.8), (34, 0), (40, 0), (41, 0.9), (42, 1.5), (43, 2.2)] {
            changes += monitor.update(speed: v, at: t)
        }
        for t in stride(from: 44.0, through: 60, by: 1) {
            changes += monitor.update(speed: speed(330), at: t)
        }
        #expect(changes.isEmpty, "\(changes)")
    }

    @Test func minimumsSoundsFiftyMetresBeforeTargetEvenWhenPaceAlertsNeverArmed() {
        var computer = FlightComputer()
        let slow = Mission(targetPace: 200, allowedDeviation: 5, targetDistance: 300)  // never reached
        computer.rotate(mission: slow)
        var heard: [Callout] = []
        var approachSeen = false
        var t = 0.0
        while t <= 100 {
            heard += callouts(computer.handle(.fix(Track.fix(t, east: 3 * t, speed: 3))))
            if computer.phase == .approach { approachSeen = true }
            t += 1
        }
        #expect(heard.filter { $0 == .minimums }.count == 1)
        #expect(!heard.contains(.sinkRate))
        #expect(approachSeen)
        #expect(computer.phase == .cruise)  // past the target
    }

    @Test func minimumsWindowIsInMetres() {
        var monitor = MinimumsMonitor(targetDistance: 5000)
        let early = monitor.shouldSound(4949)
        let entering = monitor.shouldSound(4950)
        let again = monitor.shouldSound(4960)
        #expect(!early && entering && !again)
        #expect(!monitor.isInApproach(5000))
    }

    @Test func episodesAreLoggedWithTimeAndPosition() {
        var computer = FlightComputer()
        computer.rotate(mission: mission)
        computer.run(speed: 1000 / 330, from: 0, to: 60)
        computer.run(speed: 1000 / 400, from: 61, to: 120, startEast: 61 * 1000 / 330)
        let flight = computer.land()
        let episodes = flight?.alerts ?? []
        #expect(episodes.count == 1)
        #expect(episodes.first?.kind == .sinkRate)
        #expect(episodes.first?.coordinate != nil)
        // Backdated to when the verdict's 10-second average crossed, ~7 s after the slowdown.
        if let start = episodes.first?.startElapsed { #expect(start > 60 && start < 72) }
        #expect(episodes.first?.endElapsed != nil)
        #expect(flight?.paceAlertCount == 1)
    }
}

@Suite("Control: stale stops are ignored, a stop without a time is obeyed")
struct StaleStopRuleTests {
    @Test func aStopSentBeforeTheFlightStartedIsIgnored() {
        var computer = FlightComputer()
        computer.rotate(at: 100)
        computer.run(speed: 3, from: 100, to: 200)
        #expect(computer.end(sentAt: Track.t0 + 50).result == .ignoredStale)
        #expect(computer.isFlying)
    }

    @Test func aStopWithoutATimeIsObeyed() {
        var computer = FlightComputer()
        computer.rotate(at: 100)
        computer.run(speed: 3, from: 100, to: 200)
        #expect(computer.end(sentAt: nil).result.flight != nil)
    }

    @Test func theRule() {
        #expect(StaleStopRule.obeys(sentAt: nil, flightStartedAt: 10))
        #expect(!StaleStopRule.obeys(sentAt: 9, flightStartedAt: 10))
        #expect(StaleStopRule.obeys(sentAt: 10, flightStartedAt: 10))
    }
}
