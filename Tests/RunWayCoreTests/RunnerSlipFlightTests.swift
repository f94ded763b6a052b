import Testing

@testable import RunWayCore

/// The slips through the whole engine (issue 27): what the flight says and keeps.
@Suite("Slips in flight: a PAUSE bump, a car, a forgotten stop")
struct RunnerSlipFlightTests {
    @Test func startResumesAManuallyPausedFlight() {
        var computer = FlightComputer()
        computer.rotate()
        computer.run(speed: 3, from: 1, to: 60)
        _ = computer.handle(.pause(at: Track.t0 + 60.5))
        #expect(computer.pfd.pauseReason == .manual)
        let said = callouts(computer.handle(.start(at: Track.t0 + 70, mission: nil, countdown: true)))
        #expect(computer.pfd.pauseReason == nil)
        #expect(said.contains(.resume))
        #expect(computer.phase == .cruise)
    }

    /// PAUSE bumped at 1 km, the runner runs on for ten minutes: reminded within 20 s and every
    /// two minutes; with auto-resume on, the flight resumes and keeps the running.
    @Test func aPauseBumpIsRemindedAndAutoResumeKeepsTheRun() throws {
        for autoResume in [nil, 30.0] as [Double?] {
            var configuration = EngineConfiguration()
            configuration.slips.autoResumeAfter = autoResume
            var computer = FlightComputer(configuration: configuration)
            computer.rotate()
            computer.run(speed: 3, from: 1, to: 333)
            _ = computer.handle(.pause(at: Track.t0 + 333.5))
            var said: [(Double, Callout)] = []
            for t in 334...933 {
                for case .callout(let c) in computer.handle(
                    .fix(Track.fix(Double(t), east: 999 + 3 * Double(t - 333), speed: 3)))
                {
                    said.append((c.time - Track.t0, c.callout))
                }
            }
            let landed = computer.land()
            let flight = try #require(landed)
            if autoResume == nil {
                #expect(flight.decisions.filter { $0.kind == .stillPaused }.count == 5)
                let reminders = said.filter { $0.1 == .stillPaused }.map(\.0)
                #expect(reminders.first.map { $0 <= 334 + 20 } == true, "\(said)")
                #expect(reminders.count == 5)
                #expect(abs(flight.distance - 999) < 15)
            } else {
                #expect(said.contains { $0.1 == .resume })
                #expect(flight.decisions.contains { $0.kind == .autoResume && ($0.value ?? 0) > 50 })
                #expect(abs(flight.distance - 2799) < 30, "\(flight.distance)")
                #expect(abs(flight.movingTime - 933) < 5)
            }
        }
    }

    /// Run 10 min, drive 10 min at 12 m/s, park 1 min, run 5 min: the drive is not distance
    /// and is a VEHICLE pause.
    @Test func aCarRideIsAVehiclePauseAndRunningResumes() throws {
        var computer = FlightComputer()
        computer.rotate()
        var east = 0.0
        var said: [Callout] = []
        func leg(_ seconds: ClosedRange<Int>, _ speed: Double) {
            for t in seconds {
                east += speed
                said += callouts(computer.handle(.fix(Track.fix(Double(t), east: east, speed: speed))))
            }
        }
        leg(1...600, 3)
        leg(601...1200, 12)
        leg(1201...1260, 0)
        leg(1261...1560, 3)
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(said.contains(.pause(.vehicle)))
        #expect(flight.pauses.contains { $0.reason == .vehicle })
        // 1800 m before, 900 m after (less the 15 s it takes to believe the running).
        #expect(flight.distance > 2650 && flight.distance < 2750, "\(flight.distance)")
        #expect(abs(flight.movingTime - 900) < 10, "\(flight.movingTime)")
        // The board's decisions are the flight's: the pause (with what it took back), the resume.
        let kinds = flight.decisions.map(\.kind)
        #expect(kinds == [.vehiclePause, .vehicleResume], "\(flight.decisions)")
        #expect((flight.decisions.first?.value ?? 0) > 50, "metres taken back: \(flight.decisions)")
    }

    /// Run 10 min, drive home for 10 min, park and forget: no "stopped" while driving; reminded
    /// 5 minutes after parking, landed 30 minutes after it, where the running ended.
    @Test func aDriveHomeThenAForgottenStopLandsWhereTheRunningEnded() throws {
        var computer = FlightComputer()
        computer.rotate()
        var east = 0.0
        var landed: Flight?
        var said: [(Double, Callout)] = []
        func leg(_ seconds: ClosedRange<Int>, _ speed: Double) {
            for t in seconds where landed == nil {
                east += speed
                for output in computer.handle(.fix(Track.fix(Double(t), east: east, speed: speed))) {
                    if case .callout(let c) = output { said.append((c.time - Track.t0, c.callout)) }
                    if case .ended(.landed(let f)) = output { landed = f }
                }
            }
        }
        leg(1...600, 3)
        leg(601...1200, 12)
        leg(1201...4000, 0)
        let flight = try #require(landed)
        #expect(flight.landing == .standstill)
        #expect(abs(flight.elapsed - 600) < 20, "\(flight.elapsed)")
        let reminders = said.filter { if case .standstill(_, false) = $0.1 { true } else { false } }.map(\.0)
        #expect(reminders.first.map { abs($0 - 1500) < 5 } == true, "\(reminders)")
        #expect(flight.decisions.last?.kind == .standstillLanding)
        #expect(abs(flight.distance - 1800) < 20, "\(flight.distance)")
    }

    /// Run 10 min, then stand for 40 min (fixes keep coming, Doppler 0): reminded at 5 min,
    /// landed at 30 min at the last movement, said so, recorded as such.
    @Test func aForgottenStopLandsAtTheLastMovement() throws {
        var computer = FlightComputer()
        computer.rotate()
        computer.run(speed: 3, from: 1, to: 600)
        var said: [Callout] = []
        var landed: Flight?
        for t in 601...3000 {
            for output in computer.handle(.fix(Track.fix(Double(t), east: 1800, speed: 0))) {
                if case .callout(let c) = output { said.append(c.callout) }
                if case .ended(.landed(let f)) = output { landed = f }
            }
        }
        let flight = try #require(landed)
        #expect(flight.landing == .standstill)
        #expect(abs(flight.elapsed - 600) < 10, "\(flight.elapsed)")
        #expect(abs(flight.distance - 1800) < 10)
        #expect(said.contains(.standstill(minutes: 5, landing: false)))
        #expect(said.contains(.standstill(minutes: 30, landing: true)))
        #expect(said.last == .touchdown || said.contains(.touchdown))
        #expect(!computer.isFlying)
        #expect(computer.landedByItself == flight)
        #expect(flight.samples.allSatisfy { $0.elapsed <= flight.elapsed })
        // Every reminder and the landing, with the minutes standing, in the flight.
        #expect(
            flight.decisions.map(\.kind) == [
                .standstillReminder, .standstillReminder, .standstillReminder, .standstillLanding,
            ], "\(flight.decisions)")
        #expect(flight.decisions.map(\.value) == [5, 15, 25, 30])
    }
}

/// The runner's unit (issue 27's settings): splits of a mile, or of a set length.
@Suite("Splits in the runner's unit")
struct SplitUnitTests {
    @Test func aRunnerInMilesGetsMileSplits() throws {
        var configuration = EngineConfiguration()
        configuration.units = .mile
        configuration.splitLength = DistanceUnit.mile.metres
        var computer = FlightComputer(configuration: configuration)
        computer.rotate()
        let said = computer.run(speed: 3, from: 1, to: 1700)
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(flight.splits.count == 4)  // three miles and the last 0.17
        #expect(flight.splits.prefix(3).allSatisfy { abs($0.distance - 1609.344) < 1e-6 })
        #expect(said.filter { if case .split = $0 { true } else { false } }.count == 3)
        #expect(abs(flight.splits[0].elapsedEnd - 1609.344 / 3) < 2)
    }
}
