import RunWayCore
import RunWaySimulator
import Testing

/// Bad sensor data cannot poison a flight: an outlier first fix, absurd or glitched speeds.
@Suite("Hostile fixes: a bad first fix, absurd speeds, glitches")
struct HostileFixTests {
    /// Flies the 5 km scenario, letting `alter` change each fix after ROTATE (by its index).
    static func fly(_ alter: (Int, inout Fix) -> Void = { _, _ in }) -> (Flight, [TimedCallout]) {
        var runner = ScenarioRunner(Scenario.flat5k)
        var computer = FlightComputer()
        var callouts: [TimedCallout] = []
        var index = 0
        var flight: Flight?
        while let event = runner.next() {
            switch event {
            case .input(var input):
                if case .fix(var fix) = input, computer.isFlying {
                    alter(index, &fix)
                    index += 1
                    input = .fix(fix)
                }
                for case .callout(let c) in computer.handle(input) { callouts.append(c) }
            case .end(let sentAt):
                let (result, outputs) = computer.end(sentAt: sentAt)
                for case .callout(let c) in outputs { callouts.append(c) }
                flight = result.flight
            }
        }
        return (flight!, callouts)
    }

    static let clean = fly().0

    static func moved(_ fix: inout Fix, northMetres: Double) {
        fix.coordinate = LocalProjection(origin: fix.coordinate).coordinate(east: 0, north: northMetres)
    }

    @Test(arguments: [30.0, 1_000, 280_000])
    func anOutlierFirstFixDoesNotAnchorTheFlight(_ metres: Double) {
        let (flight, callouts) = Self.fly { index, fix in
            if index == 0 {
                Self.moved(&fix, northMetres: metres)
                fix.horizontalAccuracy = 20
            }
        }
        #expect(abs(flight.distance - Self.clean.distance) < 10, "clean \(Self.clean.distance) m")
        #expect(abs(flight.movingTime - Self.clean.movingTime) < 3)
        #expect(!callouts.contains { $0.callout == .signalLost })
        #expect(flight.splits.count == Self.clean.splits.count)
    }

    @Test func theSameOutlierMidRunIsStillRejected() {
        let (flight, _) = Self.fly { index, fix in
            if index == 600 { Self.moved(&fix, northMetres: 1_000) }
        }
        #expect(abs(flight.distance - Self.clean.distance) < 10)
    }

    @Test func absurdSpeedsAreNotPaceAndRaiseNoOverspeed() {
        // Speed 1e308 on a few fixes, then three fixes at 30 m/s: a Doppler glitch.
        let (flight, callouts) = Self.fly { index, fix in
            if (100...102).contains(index) { fix.speed = 1e308 }
            if (400...402).contains(index) { fix.speed = 30 }
        }
        #expect(abs(flight.distance - Self.clean.distance) < 5)
        #expect(!callouts.contains { $0.callout == .overspeed })
        #expect(flight.alerts.isEmpty)
        let fastest = flight.splits.map(\.pace).compactMap { $0 }.min() ?? 0
        let cleanFastest = Self.clean.splits.map(\.pace).compactMap { $0 }.min() ?? 0
        #expect(abs(fastest - cleanFastest) < 2)
    }

    @Test func aGlitchedSpeedInAMissionRaisesNoOverspeed() {
        var computer = FlightComputer()
        let mission = Mission(targetPace: 333, allowedDeviation: 15, targetDistance: 5_000)
        computer.rotate(mission: mission)
        var heard: [Callout] = []
        for t in 0...120 {
            let speed = (60...62).contains(t) ? 30.0 : 3.0
            let outputs = computer.handle(.fix(Track.fix(Double(t), east: 3.0 * Double(t), speed: speed)))
            heard += callouts(outputs)
        }
        #expect(!heard.contains(.overspeed))
    }
}

@Suite("Replay ticks: a replay says what the live run said, when it said it")
struct ReplayTickTests {
    @Test func signalLostIsStampedEightSecondsAfterTheLastFixNotAtTheGapsEnd() {
        var inputs: [EngineInput] = []
        for t in 0...60 { inputs.append(.fix(Track.fix(Double(t), east: 3 * Double(t), speed: 3))) }
        for t in 660...700 { inputs.append(.fix(Track.fix(Double(t), east: 3 * Double(t - 600), speed: 3))) }
        var computer = FlightComputer()
        computer.rotate()
        var live = computer
        // Live: the daemon ticks once a second through the gap.
        var heardLive: [TimedCallout] = []
        var last = Track.t0
        for input in inputs {
            var t = last + 1
            while t < input.time {
                for case .callout(let c) in live.handle(.tick(t)) { heardLive.append(c) }
                t += 1
            }
            for case .callout(let c) in live.handle(input) { heardLive.append(c) }
            last = input.time
        }
        replay(inputs, into: &computer)
        let lost = heardLive.first { $0.callout == .signalLost }
        #expect(lost.map { $0.time - Track.t0 } == 68)
        #expect(live.land() == computer.land())
    }

    @Test func ticksAreBoundedPerGap() {
        var ticker = ReplayTicker()
        _ = ticker.ticks(before: 0)
        #expect(ticker.ticks(before: 1e12).count == ReplayTicker.maxTicksPerGap)
        #expect(ticker.ticks(before: 1e12 + 0.5).isEmpty)
        #expect(ticker.ticks(before: 5).isEmpty)  // does not advance
    }
}
