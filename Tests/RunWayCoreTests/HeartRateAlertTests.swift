import Testing

@testable import RunWayCore

@Suite("HR HIGH / HR LOW: warm-up, smoothed verdict, hysteresis, merging, slow repeats")
struct HeartRateAlertTests {
    let band = Mission.HeartRateBand(low: 140, high: 155)

    /// Feeds `heartRate(t)` once a second from `from` to `to` (moving time = t); returns the changes.
    static func feed(
        _ monitor: inout HeartRateAlertMonitor, from: Double, to: Double, _ heartRate: (Double) -> Double?
    ) -> [GPWSChange] {
        var changes: [GPWSChange] = []
        var t = from
        while t <= to {
            changes += monitor.update(heartRate: heartRate(t), movingTime: t, at: t)
            t += 1
        }
        return changes
    }

    static func began(_ changes: [GPWSChange]) -> [GPWSAlert] {
        changes.compactMap { if case .began(let kind, _) = $0 { kind } else { nil } }
    }

    @Test func noVerdictWhileHeartRateClimbsDuringTheWarmUp() {
        var monitor = HeartRateAlertMonitor(band: band)
        // Far below the band for 4:59 of moving time: still climbing, not HR LOW.
        let warmUp = Self.feed(&monitor, from: 0, to: 299) { _ in 110 }
        #expect(warmUp.isEmpty)
        #expect(!monitor.isArmed)
        let after = Self.feed(&monitor, from: 300, to: 320) { _ in 110 }
        #expect(Self.began(after) == [.heartRateLow])
        // Backdated to when the verdict first said so: the warm-up's end.
        #expect(after.first == .began(.heartRateLow, at: 300))
    }

    /// A band turned over (low above high, as a damaged row could hand one in) judges nothing
    /// wrong and never traps on a reversed range.
    @Test func aBandTurnedOverDoesNotTrap() {
        var monitor = HeartRateAlertMonitor(band: Mission.HeartRateBand(low: 180, high: 120))
        _ = Self.feed(&monitor, from: 0, to: 60) { _ in 150 }
        #expect(!monitor.isArmed)
    }

    @Test func reachingTheBandEndsTheWarmUpEarly() {
        var monitor = HeartRateAlertMonitor(band: band)
        _ = Self.feed(&monitor, from: 0, to: 120) { _ in 148 }
        #expect(monitor.isArmed)
        let overshoot = Self.feed(&monitor, from: 121, to: 240) { _ in 175 }
        #expect(Self.began(overshoot) == [.heartRateHigh])
    }

    @Test func hysteresisNeedsTheMarginToEnterAndToLeave() {
        var monitor = HeartRateAlertMonitor(band: band)
        _ = Self.feed(&monitor, from: 0, to: 400) { _ in 148 }
        // 2 bpm over the edge: inside the entry margin (3), no episode.
        #expect(Self.feed(&monitor, from: 401, to: 800) { _ in 157 }.isEmpty)
        // 5 over: HR HIGH.
        let high = Self.feed(&monitor, from: 801, to: 1000) { _ in 160 }
        #expect(Self.began(high) == [.heartRateHigh])
        // Back to 1 bpm inside the edge: not yet 2 inside, the episode goes on (no end).
        let edge = Self.feed(&monitor, from: 1001, to: 1170) { _ in 154 }
        #expect(!edge.contains { if case .ended = $0 { true } else { false } })
        #expect(monitor.state == .alerting(.heartRateHigh))
        // 5 inside: it ends (reported once the merge window has passed).
        let back = Self.feed(&monitor, from: 1171, to: 1400) { _ in 150 }
        #expect(monitor.state == .normal)
        #expect(back.contains { if case .ended(.heartRateHigh, _) = $0 { true } else { false } })
    }

    @Test func aLongEpisodeIsRepeatedSlowlyAndAQuickReturnIsTheSameEpisode() {
        var monitor = HeartRateAlertMonitor(band: band)
        _ = Self.feed(&monitor, from: 0, to: 400) { _ in 148 }
        // Ten minutes high: one callout and three repeats (every 180 s), not six hundred.
        let high = Self.feed(&monitor, from: 401, to: 1000) { _ in 170 }
        #expect(Self.began(high) == [.heartRateHigh])
        let repeats = high.filter { if case .repeated = $0 { true } else { false } }
        #expect(repeats.count == 3)
        // Back in the band for 45 s, then high again: within mergeSeconds, no new callout.
        let dip = Self.feed(&monitor, from: 1001, to: 1045) { _ in 142 }
        let again = Self.feed(&monitor, from: 1046, to: 1200) { _ in 170 }
        #expect(Self.began(dip + again).isEmpty)
    }

    @Test func noHeartRateIsNoVerdictNeverHRLow() {
        var monitor = HeartRateAlertMonitor(band: band)
        #expect(Self.feed(&monitor, from: 0, to: 1200) { _ in nil }.isEmpty)
    }

    @Test func afterAPauseTheVerdictSettlesAgain() {
        var monitor = HeartRateAlertMonitor(band: band)
        _ = Self.feed(&monitor, from: 0, to: 400) { _ in 148 }
        _ = monitor.silence(at: 400)
        // Heart rate fell while standing; for the first minute back it is not HR LOW.
        let back = Self.feed(&monitor, from: 460, to: 519) { _ in 120 }
        #expect(back.isEmpty)
    }
}

@Suite("Heart-rate missions in the engine: callouts, precedence over pace, a time goal")
struct HeartRateMissionTests {
    /// Runs east at 3 m/s with a fix and a heart-rate reading every second.
    static func run(
        _ computer: inout FlightComputer, from: Double, to: Double, startEast: Double = 0,
        speed: Double = 3, heartRate: (Double) -> Double?
    ) -> [Callout] {
        var heard: [Callout] = []
        var t = from
        while t <= to {
            heard += callouts(
                computer.handle(.fix(Track.fix(t, east: startEast + speed * (t - from), speed: speed))))
            heard += callouts(
                computer.handle(.body(BodySample(time: Track.t0 + t + 0.5, heartRate: heartRate(t)))))
            t += 1
        }
        return heard
    }

    @Test func anHRMissionSaysHRHighAndLogsItsEpisode() throws {
        let mission = Mission(pace: nil, heartRate: .init(low: 140, high: 155), goal: .distance(20_000))
        var computer = FlightComputer()
        computer.rotate(mission: mission)
        var heard = Self.run(&computer, from: 0, to: 600) { _ in 150 }
        heard += Self.run(&computer, from: 601, to: 900, startEast: 1803) { _ in 168 }
        #expect(heard.filter { $0 == .heartRateHigh }.count == 2)  // the callout, one repeat 180 s on
        #expect(!heard.contains(.sinkRate) && !heard.contains(.heartRateLow))
        #expect(computer.pfd.gpws == .heartRateHigh)
        #expect(try #require(computer.pfd.alertHeartRate) > 160)
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(flight.alerts.map(\.kind) == [.heartRateHigh])
        #expect(flight.heartRateAlertCount == 1 && flight.paceAlertCount == 0)
        #expect(flight.alerts[0].endElapsed != nil)
    }

    @Test func whileHeartRateAlertsAPaceCalloutIsLoggedButNotSaid() throws {
        // Slow (6:40/km against 5:30 ±15) with a heart rate too high: "faster" and "easier"
        // would contradict; heart rate is said.
        let mission = Mission(
            pace: .init(targetPace: 330, allowedDeviation: 15), heartRate: .init(low: 140, high: 155),
            goal: .distance(20_000))
        var computer = FlightComputer()
        computer.rotate(mission: mission)
        var heard = Self.run(&computer, from: 0, to: 400, speed: 1000 / 330) { _ in 150 }
        heard += Self.run(&computer, from: 401, to: 480, startEast: 401 * 1000 / 330, speed: 1000 / 330) {
            _ in 170
        }
        #expect(heard.contains(.heartRateHigh))
        heard = Self.run(&computer, from: 481, to: 700, startEast: 481 * 1000 / 330, speed: 2.5) { _ in 170 }
        #expect(!heard.contains(.sinkRate))
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(flight.alerts.contains { $0.kind == .sinkRate })
    }

    @Test func aTimeGoalSaysMinimumsThirtySecondsBeforeAndCompletesOnMovingTime() {
        let mission = Mission(pace: nil, heartRate: .init(low: 140, high: 155), goal: .duration(600))
        var computer = FlightComputer()
        computer.rotate(mission: mission)
        var phases: [Double: FlightPhase] = [:]
        var heard: [(Double, Callout)] = []
        var t = 0.0
        while t <= 700 {
            for c in callouts(computer.handle(.fix(Track.fix(t, east: 3 * t, speed: 3)))) {
                heard.append((t, c))
            }
            phases[t] = computer.phase
            t += 1
        }
        let minimums = heard.first { $0.1 == .minimums }?.0
        let complete = heard.first { $0.1 == .missionComplete }?.0
        #expect(minimums.map { (570...572).contains($0) } == true, "\(String(describing: minimums))")
        #expect(complete.map { (600...602).contains($0) } == true, "\(String(describing: complete))")
        #expect(phases[585] == .approach && phases[650] == .cruise)
    }
}
