import RunWayCore
import RunWaySimulator
import Testing

/// The built-in scenarios' output, pinned before the condition models were added: the demo, the
/// tests and the bench depend on a scenario flying the same for the same seed, so a new simulator
/// model must draw no random number (and change nothing) unless a scenario turns it on.
@Suite("Simulator golden: existing scenarios give the same events for the same seed")
struct GoldenScenarioTests {
    /// FNV-1a over every event's description (Swift prints a Double with the shortest digits that
    /// read back to the same bits, so equal text is equal output) and the truth's totals. An
    /// input that gains a field (START's `workout:` and `run:`, both nil here) changes every
    /// hash with the event counts unchanged: then only the hashes are updated.
    static func digest(_ scenario: Scenario) -> (events: Int, hash: UInt64) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
        }
        var runner = ScenarioRunner(scenario)
        var count = 0
        while let event = runner.next() {
            mix("\(event)\n")
            count += 1
        }
        let truth = runner.truth
        mix("\(truth.distance) \(truth.movingTime) \(truth.kilometreTimes) \(truth.elevationGain)")
        mix("\(truth.arrivalElapsed) \(truth.stopCount)")
        return (count, hash)
    }

    static var signalGap: Scenario {
        var scenario = Scenario.flat5k.ending(at: 2000)
        scenario.signalGaps = [Scenario.SignalGap(start: 300, seconds: 20)]
        return scenario
    }

    /// Every built-in scenario (the 24-hour ones shortened to 6 minutes at 10 Hz), one with a
    /// signal gap and one with the heart-rate model: events and truth as they were.
    @Test(arguments: [
        ("demo", Scenario.demoMission, 5307, 0x3d1f_9434_412c_e12b as UInt64),
        ("flat5k", Scenario.flat5k, 5041, 0xff93_d93a_8d0d_d85d),
        ("hilly10k", Scenario.hilly10k, 10385, 0x5d4c_3bfc_3fa1_5e19),
        ("stops5k", Scenario.stops5k, 5207, 0x8be7_ed22_5654_434c),
        ("walker", Scenario.walker, 3499, 0xc239_1baf_925f_d5ec),
        ("signal gap", signalGap, 2041, 0xd2de_702d_e9c0_1436),
        ("heart-rate edge", Scenario.heartRateEdge(offset: -5, minutes: 10), 1840, 0xb131_e804_5321_80d7),
        ("10 Hz", Scenario.endurance(hours: 0.1, rate: 10), 4533, 0xff1a_1740_478e_fe4e),
    ])
    func scenarioIsUnchanged(name: String, scenario: Scenario, events: Int, hash: UInt64) {
        let digest = Self.digest(scenario)
        #expect(digest.events == events, "\(name)")
        #expect(digest.hash == hash, "\(name): 0x\(String(digest.hash, radix: 16))")
    }

    /// The first fixes of flat 5 km (seed 11), printed before the change: a readable failure when
    /// the digest above moves.
    @Test func flat5kFirstFixesAreUnchanged() {
        let expected: [(Double, Double, Double, Double, Double, Double)] = [
            (1_791_010_790, 37.5287189418446, 126.93506814081671, 18.3, 0.057, 33.66682781209853),
            (1_791_010_791, 37.528723712201945, 126.93506407711916, 18.2, 0.0, 34.40240293692719),
            (1_791_010_792, 37.52872279388405, 126.93506613791146, 18.2, 0.0, 33.9915058046354),
            (1_791_010_793, 37.5287393408674, 126.93506421796793, 18.2, 0.0, 33.90135090535459),
            (1_791_010_794, 37.52873799324975, 126.93508413287117, 18.4, 0.005, 34.55114414197866),
            (1_791_010_795, 37.528732236857095, 126.93506153274284, 18.5, 0.0, 34.7285446015026),
            (1_791_010_796, 37.528725112545544, 126.935082463657, 18.5, 0.052, 35.155849808005115),
            (1_791_010_797, 37.528743001010234, 126.9350755421219, 18.5, 0.116, 35.58501519804794),
            (1_791_010_798, 37.528732565084184, 126.93506892896806, 18.5, 0.259, 35.86226751469986),
            (1_791_010_799, 37.52871743740233, 126.93507047315555, 18.9, 0.193, 36.086638171164076),
            (1_791_010_800, 37.52872350011895, 126.93507484872006, 18.8, 0.0, 35.68373751462137),
            (1_791_010_801, 37.52873302282575, 126.93507525861654, 18.8, 0.12, 35.74656287218482),
        ]
        var runner = ScenarioRunner(.flat5k)
        var fixes: [Fix] = []
        while fixes.count < expected.count, let event = runner.next() {
            if case .input(.fix(let fix)) = event { fixes.append(fix) }
        }
        #expect(fixes.count == expected.count)
        for (fix, want) in zip(fixes, expected) {
            #expect(fix.time == want.0)
            #expect(fix.coordinate.latitude == want.1)
            #expect(fix.coordinate.longitude == want.2)
            #expect(fix.horizontalAccuracy == want.3)
            #expect(fix.speed == want.4)
            #expect(fix.track == nil)
            #expect(fix.altitude == want.5)
            #expect(fix.mode == 3)
        }
    }
}
