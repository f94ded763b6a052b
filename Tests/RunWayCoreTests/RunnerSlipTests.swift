import Testing

@testable import RunWayCore

/// The runner's slips (issue 27), each rule alone: running while paused, a vehicle, a forgotten
/// stop.
@Suite("Slips: running while paused, vehicles, forgotten stops")
struct RunnerSlipTests {
    // MARK: SlipWatch

    @Test func runningWhilePausedIsRemindedSoonThenSlowly() {
        var watch = SlipWatch()
        var reminders: [Double] = []
        for t in 0...300 {
            if case .remind? = watch.observe(time: Double(t), speed: 3, cadence: nil) {
                reminders.append(Double(t))
            }
        }
        #expect(reminders == [15, 135, 255])
    }

    @Test func walkingOrAFastWalkWithAFootpodIsNoSlip() {
        var walking = SlipWatch()
        var footpod = SlipWatch()
        for t in 0...300 {
            #expect(walking.observe(time: Double(t), speed: 1.6, cadence: nil) == nil)
            // 2.2 m/s at 115 steps a minute: a long-legged walker, not a runner.
            #expect(footpod.observe(time: Double(t), speed: 2.2, cadence: 115) == nil)
        }
    }

    @Test func aShortBreakInTheRunningDoesNotRestartTheWait() {
        var watch = SlipWatch()
        var first: Double?
        for t in 0...40 {
            let speed = t == 8 || t == 9 ? 0.5 : 3.0  // a kerb, two slow readings
            if case .remind? = watch.observe(time: Double(t), speed: speed, cadence: nil), first == nil {
                first = Double(t)
            }
        }
        #expect(first == 15)
    }

    @Test func autoResumeIsOffUnlessTurnedOn() {
        var off = SlipWatch()
        for t in 0...600 {
            if case .resume? = off.observe(time: Double(t), speed: 3, cadence: nil) {
                Issue.record("resumed")
            }
        }
    }

    @Test func autoResumeSaysWhenTheRunningBeganAndHowFarItWent() throws {
        var configuration = SlipWatch.Configuration()
        configuration.autoResumeAfter = 30
        var watch = SlipWatch(configuration: configuration)
        var decision: SlipWatch.Decision?
        for t in 0...40 where decision == nil {
            if let d = watch.observe(time: 100 + Double(t), speed: 3, cadence: nil), case .resume = d {
                decision = d
            }
        }
        guard case .resume(let since, let metres) = try #require(decision) else { return }
        #expect(since == 100)
        #expect(abs(metres - 90) < 0.1)
    }

    // MARK: VehicleWatch

    func ride(
        _ watch: inout VehicleWatch, speeds: [(seconds: Int, speed: Double, cadence: Double?)],
        from t0: Double = 0
    )
        -> [(Double, VehicleWatch.Decision)]
    {
        var decisions: [(Double, VehicleWatch.Decision)] = []
        var t = t0
        for leg in speeds {
            for _ in 0..<leg.seconds {
                if let d = watch.observe(time: t, speed: leg.speed, cadence: leg.cadence) {
                    decisions.append((t, d))
                }
                t += 1
            }
        }
        return decisions
    }

    @Test func aCarIsAVehicleFromWhenItsSpeedBegan() throws {
        var watch = VehicleWatch()
        let decisions = ride(&watch, speeds: [(60, 3, nil), (60, 12, nil)])
        let (at, decision) = try #require(decisions.first)
        #expect(decision == .vehicle(since: 60))
        #expect(at == 70)
        #expect(watch.riding)
    }

    @Test func aSprintFinishAt250IsRunning() {
        var watch = VehicleWatch()
        // 2:50 /km is 5.88 m/s; the last 400 m of a race, with Doppler noise of 0.3 m/s.
        let decisions = ride(
            &watch, speeds: [(300, 3.2, nil), (30, 5.6, nil), (38, 6.2, nil), (10, 6.5, 175)])
        #expect(decisions.isEmpty)
    }

    @Test func aSlowBusIsCaughtByTheFootpodAlone() throws {
        var watch = VehicleWatch()
        // 4.5 m/s in traffic (under any speed limit a runner could not reach), no steps.
        let decisions = ride(&watch, speeds: [(60, 3, 170), (60, 4.5, 0)])
        #expect(try #require(decisions.first).1 == .vehicle(since: 60))
    }

    @Test func runningAgainAfterTheRideResumesAndTrafficDoesNot() throws {
        var watch = VehicleWatch()
        // Ride, a red light, ride on, park, run.
        let decisions = ride(
            &watch,
            speeds: [(20, 12, nil), (30, 0, nil), (8, 3, nil), (60, 11, nil), (60, 0, nil), (40, 3, nil)])
        #expect(decisions.count == 2)
        #expect(decisions.first?.1 == .vehicle(since: 0))
        guard case .running(let since, let metres)? = decisions.last?.1 else {
            Issue.record("no running: \(decisions)")
            return
        }
        #expect(since == 178)
        #expect(abs(metres - 45) < 1)
    }

    // MARK: StandstillWatch

    @Test func aForgottenStopIsRemindedThenLandedAtItsLastMovement() {
        var watch = StandstillWatch()
        var decisions: [(Double, StandstillWatch.Decision)] = []
        for t in stride(from: 1000.0, through: 4000, by: 1) {
            if let d = watch.observe(time: t, pausedSince: 1000) { decisions.append((t, d)) }
        }
        #expect(decisions.map(\.0) == [1300, 1900, 2500, 2800])
        #expect(decisions.last?.1 == .land(lastMovement: 1000, seconds: 1800))
    }

    @Test func movingAgainStartsTheStandstillOver() {
        var watch = StandstillWatch()
        for t in 1001...1200 { _ = watch.observe(time: Double(t), pausedSince: 1000) }
        _ = watch.observe(time: 1250, pausedSince: nil)
        var first: Double?
        for t in 1301...1700 where first == nil {
            if watch.observe(time: Double(t), pausedSince: 1300) != nil { first = Double(t) }
        }
        #expect(first == 1600)
    }

    /// The clock jumping an hour ahead (a receiver's time corrected) is not an hour of standing.
    @Test func aClockJumpIsNotAStandstill() {
        var watch = StandstillWatch()
        _ = watch.observe(time: 1001, pausedSince: 1000)
        #expect(watch.observe(time: 1001 + 7200, pausedSince: 1000) == nil)
        #expect(watch.standing < 62)
    }

    @Test func landingCanBeTurnedOff() {
        var configuration = StandstillWatch.Configuration()
        configuration.landAfter = nil
        var watch = StandstillWatch(configuration: configuration)
        for t in stride(from: 0.0, through: 20000, by: 10) {
            if case .land? = watch.observe(time: t, pausedSince: 0) { Issue.record("landed") }
        }
    }
}
