import RunWayCore
import RunWayHardware
import Testing

@Suite("Buttons: debounce, short on release, END by a 2 s hold, overflow")
struct ButtonTests {
    func presses(
        _ script: [(index: Int, time: Double, pressed: Bool)], until end: Double, capacity: Int = 16,
        roles: [ButtonRole] = [.start, .pause, .end]
    ) -> (presses: [ButtonPress], lines: SimulatedGPIOLines) {
        let lines = SimulatedGPIOLines(
            buttons: roles.count, script: script, endTime: end, queueCapacity: capacity)
        var decoder = ButtonDecoder(roles: roles)
        var result: [ButtonPress] = []
        ButtonReader.run(lines: lines, decoder: &decoder) { result.append($0) }
        return (result, lines)
    }

    @Test func aBounceTrainIsOnePress() {
        let (result, _) = presses(SimulatedGPIOLines.press(1, at: 1, hold: 0.3, bounces: 6), until: 5)
        #expect(result.count == 1)
        guard case .short(.pause, let at) = result.first else {
            Issue.record("expected one short pause press, got \(result)")
            return
        }
        #expect(at > 1.3 && at < 1.4)  // acts on release
    }

    @Test func aHoldOfOnePointNineSecondsIsShort() {
        let (result, _) = presses(SimulatedGPIOLines.press(2, at: 1, hold: 1.9, bounces: 3), until: 6)
        #expect(result.map(\.description) == ["short end"])
    }

    @Test func aHoldOfTwoPointOneSecondsFiresEndWhileStillHeld() {
        let (result, _) = presses(SimulatedGPIOLines.press(2, at: 1, hold: 2.1, bounces: 3), until: 6)
        #expect(result.map(\.description) == ["long end"])
        guard case .long(_, let at) = result.first else { return }
        #expect(at >= 3 && at < 3.05)  // at 2 s, before the release at 3.1
    }

    @Test func twoButtonsAtOnceAreBothSeen() {
        let script =
            SimulatedGPIOLines.press(0, at: 1, hold: 0.2, bounces: 2)
            + SimulatedGPIOLines.press(1, at: 1.005, hold: 0.25, bounces: 2)
        let (result, _) = presses(script, until: 3)
        #expect(Set(result.map(\.description)) == ["short start", "short pause"])
    }

    @Test func anOverflowingQueueNeverTurnsABumpIntoEnd() {
        // 40 bounce edges on press and release with room for 4 in the queue: the release edges
        // are lost, yet the level poll while held sees the button go up.
        let script = SimulatedGPIOLines.press(2, at: 1, hold: 0.5, bounces: 20)
        let (result, lines) = presses(script, until: 6, capacity: 4)
        #expect(lines.droppedEdges > 0)
        #expect(result.map(\.description) == ["short end"])
    }

    @Test func aStalledReaderStillSeesTheRelease() {
        let lines = SimulatedGPIOLines(
            buttons: 1, script: SimulatedGPIOLines.press(0, at: 1, hold: 0.4), endTime: 5, queueCapacity: 16)
        var decoder = ButtonDecoder(roles: [.start])
        var result: [ButtonPress] = []
        // Read the press edge, then stall past the release (its edge is lost).
        if let edges = lines.waitForEdges(until: nil) {
            for edge in edges { decoder.edge(edge.index, at: edge.time) }
        }
        _ = lines.waitForEdges(until: decoder.nextDeadline)
        result += decoder.check(at: lines.now) { lines.isPressed($0) }
        lines.stall(until: 1.6)
        ButtonReader.run(lines: lines, decoder: &decoder) { result.append($0) }
        #expect(result.map(\.description) == ["short start"])
    }
}

@Suite("Buzzer: a distinct pattern per callout, urgent callouts pre-empt")
struct BuzzerTests {
    @Test func everyCalloutHasItsOwnPattern() {
        let callouts: [Callout] = [
            .countdown(3), .rotate, .split(order: 1, pace: 300), .sinkRate, .overspeed, .minimums,
            .pause(.stopped), .resume, .signalLost, .touchdown, .error("x"),
        ]
        let patterns = callouts.map { BuzzerPattern.pattern(for: $0).steps }
        #expect(Set(patterns.map { $0.map { Int($0 * 1000) } }).count == callouts.count)
        #expect(BuzzerPattern.pattern(for: .countdown(3)) == BuzzerPattern.pattern(for: .countdown(1)))
    }

    @Test func aPatternPlaysItsStepsAndEndsOff() {
        var player = PatternPlayer()
        player.play(.split(order: 1, pace: 300), at: 10)
        #expect(player.isOn)
        let changes = player.advance(to: 11)
        #expect(changes.map(\.on) == [false, true, false])
        #expect(changes.map { Int((($0.time - 10) * 1000).rounded()) } == [100, 200, 300])
        #expect(player.nextChange == nil)
    }

    @Test func anUrgentCalloutPreemptsASplitBeep() {
        var player = PatternPlayer()
        player.play(.split(order: 1, pace: 300), at: 0)
        _ = player.advance(to: 0.05)
        player.play(.sinkRate, at: 0.05)
        #expect(player.isOn)
        // SINK RATE's first tone runs 400 ms from 0.05, not the split's 100 ms.
        #expect(abs((player.nextChange ?? 0) - 0.45) < 1e-9)
        let changes = player.advance(to: 10)
        let total = BuzzerPattern.pattern(for: .sinkRate).duration
        #expect(abs((changes.last?.time ?? 0) - (0.05 + total)) < 1e-9)
    }

    /// Queued patterns are heard apart: 400 ms of silence after one ends, before the next.
    /// (An END hold's beep and TOUCHDOWN ran together into one 900 ms tone.)
    @Test func queuedPatternsHaveSilenceBetweenThem() {
        var player = PatternPlayer()
        let hold = BuzzerPattern([300])
        player.play(hold, urgent: false, at: 0)
        player.play(.touchdown, at: 0.1)
        let changes = player.advance(to: 10)
        #expect(changes.first.map { abs($0.time - 0.3) < 1e-9 && !$0.on } == true, "\(changes)")
        #expect(changes.dropFirst().first.map { abs($0.time - 0.7) < 1e-9 && $0.on } == true, "\(changes)")
        let total = BuzzerPattern.pattern(for: .touchdown).duration
        #expect(abs((changes.last?.time ?? 0) - (0.7 + total)) < 1e-9)
        #expect(!player.isOn && player.nextChange == nil)
        // A pattern asked for during the gap waits for its end.
        var waiting = PatternPlayer()
        waiting.play(hold, urgent: false, at: 0)
        waiting.play(hold, urgent: false, at: 0)
        _ = waiting.advance(to: 0.35)
        waiting.play(hold, urgent: false, at: 0.35)
        #expect(!waiting.isOn && waiting.nextChange.map { abs($0 - 0.7) < 1e-9 } == true)
    }

    @Test func nonUrgentCalloutsWaitTheirTurn() {
        var player = PatternPlayer()
        player.play(.rotate, at: 0)
        player.play(.split(order: 1, pace: 300), at: 0.1)
        let changes = player.advance(to: 5)
        // ROTATE's 700 ms tone completes before the split's first beep.
        #expect(changes.first.map { abs($0.time - 0.7) < 1e-9 && !$0.on } == true)
        #expect(changes.filter(\.on).count == 2)
    }
}
