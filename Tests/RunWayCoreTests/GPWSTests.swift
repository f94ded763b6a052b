import RunWayCore
import Testing

@Suite("GPWS: arming, SINK RATE, OVERSPEED, MINIMUMS, episodes")
struct GPWSTests {
    let mission = Mission(targetPace: 330, allowedDeviation: 15, targetDistance: 5000)

    @Test func sinkRateDoesNotSoundBeforeTheTargetBandIsFirstReached() {
        var monitor = PaceAlertMonitor(mission: mission, confirmSeconds: 0)
        #expect(monitor.update(pace: 400, at: 0).isEmpty)
        #expect(!monitor.isArmed)
        #expect(monitor.update(pace: 335, at: 1).isEmpty)
        #expect(monitor.isArmed)
        #expect(monitor.update(pace: 400, at: 2) == [.began(.sinkRate, at: 2)])
    }

    @Test func overspeedBelowTargetMinusDeviation() {
        var monitor = PaceAlertMonitor(mission: mission, confirmSeconds: 0)
        _ = monitor.update(pace: 330, at: 0)
        #expect(monitor.update(pace: 314, at: 1) == [.began(.overspeed, at: 1)])
        #expect(monitor.update(pace: 330, at: 2) == [.ended(.overspeed, at: 2)])
        // The band edges themselves are normal.
        #expect(monitor.update(pace: 315, at: 3).isEmpty)
        #expect(monitor.update(pace: 345, at: 4).isEmpty)
    }

    @Test func aChangeMustHoldBeforeItSoundsAndIsBackdated() {
        var monitor = PaceAlertMonitor(mission: mission, confirmSeconds: 3)
        _ = monitor.update(pace: 330, at: 0)
        #expect(monitor.update(pace: 360, at: 10).isEmpty)
        #expect(monitor.update(pace: 330, at: 11).isEmpty)  // a blip: no alert
        #expect(monitor.update(pace: 360, at: 20).isEmpty)
        #expect(monitor.update(pace: 361, at: 23) == [.began(.sinkRate, at: 20)])
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
        let early = monitor.shouldSound(distance: 4949)
        let entering = monitor.shouldSound(distance: 4950)
        let again = monitor.shouldSound(distance: 4960)
        #expect(!early && entering && !again)
        #expect(!monitor.isInApproach(distance: 5000))
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
        if let start = episodes.first?.startElapsed { #expect(start > 60 && start < 66) }
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
