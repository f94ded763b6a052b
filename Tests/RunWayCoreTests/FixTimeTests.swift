import RunWayCore
import RunWaySimulator
import Testing

/// One misdated fix must not move the flight's clock (issue: a fix a day ahead left a 90 m run,
/// a year ahead 6.3 M FDR samples, 2099 an abort allocating 25.7 GB; a mode-1 report a day
/// ahead gave 24 h elapsed).
@Suite("Fix times off the flight's time line: held, never believed alone")
struct FixTimeTests {
    static let day = 86_400.0

    @Test(arguments: [day, 365 * day, 4_102_444_800 - 1_800_000_000.0])
    func oneFixDatedFarAheadCostsOnlyThatFix(_ lead: Double) {
        let (flight, callouts) = HostileFixTests.fly { index, fix in
            if index == 600 { fix.time += lead }
        }
        let clean = HostileFixTests.clean
        #expect(abs(flight.distance - clean.distance) < 10, "\(flight.distance) m, clean \(clean.distance) m")
        #expect(abs(flight.elapsed - clean.elapsed) < 1)
        #expect(
            abs(Double(flight.samples.count - clean.samples.count)) <= 1, "\(flight.samples.count) samples")
        #expect(!callouts.contains { $0.callout == .signalLost })
    }

    @Test func aNoFixReportDatedADayAheadDoesNotStretchTheFlight() {
        let (flight, _) = HostileFixTests.fly { index, fix in
            if index == 600 {
                fix.time += Self.day
                fix.mode = 1
            }
        }
        let clean = HostileFixTests.clean
        #expect(abs(flight.elapsed - clean.elapsed) < 1, "elapsed \(flight.elapsed) s")
        #expect(abs(flight.distance - clean.distance) < 10)
    }

    /// A fix dated far ahead is dropped when the next fix is back on the line; counted.
    @Test func theDroppedFixIsCounted() {
        var computer = FlightComputer()
        computer.rotate()
        for t in 0...30 { _ = computer.handle(.fix(Track.fix(Double(t), east: 3 * Double(t), speed: 3))) }
        _ = computer.handle(.fix(Track.fix(31 + Self.day, east: 93, speed: 3)))
        _ = computer.handle(.fix(Track.fix(32, east: 96, speed: 3)))
        #expect(computer.fixesOffTheTimeLine == 1)
        #expect(computer.pfd.elapsed < 40)
    }

    /// Time that really jumped (a board whose every input stopped for 20 minutes, then fixes
    /// again): the next fix agrees with the held one, and both count.
    @Test func aJumpThatTheNextFixConfirmsIsTaken() {
        var computer = FlightComputer()
        computer.rotate()
        for t in 0...30 { _ = computer.handle(.fix(Track.fix(Double(t), east: 3 * Double(t), speed: 3))) }
        for t in 1_230...1_260 {
            _ = computer.handle(.fix(Track.fix(Double(t), east: 3 * Double(t - 1_200), speed: 3)))
        }
        #expect(computer.fixesOffTheTimeLine == 0)
        #expect(computer.pfd.elapsed >= 1_260)
        let flight = computer.land()
        #expect(flight?.route.points.contains { $0.elapsed > 1_230 } == true)
    }

    /// A cold start: the first two fixes agree with each other and are a kilometre off. The
    /// offset is not distance (it was credited whole once the jump guard healed by time).
    @Test(arguments: [2, 3])
    func matchingBadFirstFixesAddNoOffset(_ count: Int) {
        let (flight, _) = HostileFixTests.fly { index, fix in
            if index < count {
                HostileFixTests.moved(&fix, northMetres: 1_000)
                fix.horizontalAccuracy = 20
            }
        }
        let clean = HostileFixTests.clean
        #expect(flight.distance < clean.distance + 30, "\(flight.distance) m, clean \(clean.distance) m")
        #expect(flight.distance > clean.distance - 300, "\(flight.distance) m, clean \(clean.distance) m")
    }

    /// A replay (recovery, reprocess, fly) of inputs holding one misdated fix and one misdated
    /// pressure reading (a flipped digit) flies as the clean inputs do: no ticks toward them,
    /// no FDR across the jump.
    @Test func aReplayAcrossMisdatedInputsFliesAsTheCleanOne() {
        var clean: [EngineInput] = []
        for t in 0...300 {
            clean.append(.fix(Track.fix(Double(t), east: 3 * Double(t), speed: 3)))
            clean.append(.pressure(PressureSample(time: Track.t0 + Double(t) + 0.5, pascals: 101_000)))
        }
        var damaged = clean
        damaged[200] = .fix(Track.fix(100 + Self.day, east: 300, speed: 3))
        damaged[401] = .pressure(PressureSample(time: Track.t0 + 1_000_000_000, pascals: 101_000))
        func flown(_ inputs: [EngineInput]) -> Flight? {
            var computer = FlightComputer()
            computer.rotate()
            replay(inputs, into: &computer)
            return computer.land()
        }
        let expected = flown(
            clean.enumerated().filter { $0.offset != 200 && $0.offset != 401 }.map(\.element))
        let flown = flown(damaged)
        #expect(flown?.elapsed == expected?.elapsed)
        #expect(flown?.samples.count == expected?.samples.count)
        #expect(abs((flown?.distance ?? 0) - (expected?.distance ?? 0)) < 1)
    }

    /// However far one step reaches (a corrupt time), the FDR adds at most a day of marks, and
    /// a time where +5 s no longer adds still ends.
    @Test func oneStepAddsAtMostADayOfSamples() {
        var clock = FDRClock()
        #expect(clock.marks(before: 1e300).count == FDRClock.maximumMarksPerStep)
        var other = FDRClock()
        #expect(other.marks(before: 365 * Self.day).count == FDRClock.maximumMarksPerStep)
        #expect(other.marks(before: 365 * Self.day + 4).count <= 1)
    }
}
