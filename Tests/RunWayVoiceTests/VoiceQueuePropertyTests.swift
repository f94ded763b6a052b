import RunWayCore
import RunWayHardware
import Testing

@testable import RunWayVoice

/// The queue against a simulated player over many random runs: cues of every sort arriving at
/// random, utterances of random length, stops confirmed late or never, the voice failing midway.
@Suite struct VoiceQueuePropertyTests {
    /// SplitMix64: a seed gives the same run on every machine.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    static let phrases: [Phrase?] = [
        .countdown(3), .split(order: 1, time: 300, pace: 300), .sinkRate(pace: 370, target: 330),
        .overspeed(pace: 290, target: 330), .minimums(metresToGo: 40), .pause(.stopped), .resume, .signalLost,
        .gpsBack, .status(distance: 1, time: 1, pace: nil, ahead: nil), .fault(.storage), .fault(.batteryLow),
        .lastSplit(metres: 300, time: 90, pace: 300), .gpsReady, nil,
    ]

    /// Cue `id`: a pattern of its own (so a buzz names its cue), or none.
    static func cue(_ id: Int, _ random: inout Random) -> Cue {
        let phrase = phrases[random.below(phrases.count)]
        let hasPattern = phrase == nil || random.below(4) > 0
        let urgent = phrase?.priority == .warning || (phrase == nil && random.below(2) == 0)
        return Cue(
            name: "c\(id)", pattern: hasPattern ? BuzzerPattern([50 + id]) : nil, urgent: urgent,
            phrase: phrase)
    }

    @Test(arguments: 0..<300)
    func nothingIsLostNothingOverlapsAndWarningsAreNeverKeptWaiting(_ seed: Int) {
        var run = Run(seed: seed)
        run.fly()
        #expect(run.added == 60)
        #expect(run.queue.speaking == nil && run.queue.nextDeadline == nil)
        for name in run.cues {
            #expect(!(run.accounted[name] ?? []).isEmpty, "seed \(seed): \(name) was lost silently")
        }
        // A cue is buzzed at most once and spoken at most once.
        for (name, said) in run.accounted {
            #expect(said.filter { $0 == "buzz" }.count <= 1, "seed \(seed): \(name) \(said)")
            #expect(said.filter { $0 == "speak" }.count <= 1, "seed \(seed): \(name) \(said)")
        }
    }

    /// One random run: the queue, a player with a will of its own, and what was heard.
    struct Run {
        let seed: Int
        var random: Random
        let output: VoiceQueue.Output
        var queue: VoiceQueue
        var now = 0.0
        /// When the player will report the end of what it plays.
        var playerEnds: Double?
        /// A `.speak` not yet ended or stopped.
        var voiceBusy = false
        var accounted: [String: [String]] = [:]
        var waitingWarnings: Set<String> = []
        var cues: [String] = []
        let failAt: Double
        var nextAdd = 0.0
        var added = 0

        init(seed: Int) {
            self.seed = seed
            random = Random(state: UInt64(seed))
            output = VoiceQueue.Output.allCases[seed % 3]
            queue = VoiceQueue(output: output)
            failAt = seed % 5 == 0 ? random.unit() * 60 : .infinity
        }

        /// Sixty cues, then on until nothing is left to do.
        mutating func fly() {
            while true {
                let adding = added < 60 ? nextAdd : Double.infinity
                let failing = failAt > now ? failAt : .infinity
                let step = min(queue.nextDeadline ?? .infinity, adding, playerEnds ?? .infinity, failing)
                guard step.isFinite else { return }
                now = max(now, step)
                if failAt <= now && queue.output != .buzzer {
                    perform(queue.voiceFailed(at: now))
                    voiceBusy = false
                    playerEnds = nil
                    waitingWarnings = []
                } else if let ends = playerEnds, ends <= now {
                    playerEnds = nil
                    voiceBusy = false
                    perform(queue.speechEnded(at: now))
                } else if adding <= now {
                    add()
                } else {
                    perform(queue.advance(to: now))
                }
                // A warning waiting never has information talking over its turn.
                if !waitingWarnings.isEmpty, let speaking = queue.speaking {
                    #expect(
                        speaking.priority == .warning, "seed \(seed): \(speaking.name) kept a warning waiting"
                    )
                }
            }
        }

        mutating func add() {
            let cue = VoiceQueuePropertyTests.cue(added, &random)
            cues.append(cue.name)
            added += 1
            nextAdd = now + random.unit() * random.unit() * 6
            let warning = cue.priority == .warning && cue.phrase != nil && queue.output != .buzzer
            if warning { waitingWarnings.insert(cue.name) }
            perform(queue.add(cue, at: now), addedWarning: warning)
        }

        mutating func perform(_ actions: [VoiceQueue.Action], addedWarning: Bool = false) {
            for (index, action) in actions.enumerated() {
                switch action {
                case .speak(let cue):
                    #expect(!voiceBusy, "seed \(seed): \(cue.name) spoken over another utterance")
                    if cue.priority == .information {
                        #expect(
                            waitingWarnings.isEmpty, "seed \(seed): \(cue.name) said while a warning waited")
                    }
                    voiceBusy = true
                    playerEnds = now + 0.3 + random.unit() * 4
                    heard(cue.name, "speak")
                case .stopSpeaking:
                    #expect(voiceBusy)
                    if addedWarning { #expect(index == 0, "seed \(seed): the stop comes first") }
                    voiceBusy = false
                    // Most players confirm within tens of ms; some never do.
                    playerEnds = random.below(10) == 0 ? nil : now + random.unit() * 0.2
                case .buzz(let pattern, _):
                    if output == .both && queue.output == .both {
                        #expect(!voiceBusy, "seed \(seed): a pattern over speech")
                    }
                    heard("c\(Int((pattern.steps[0] * 1000).rounded()) - 50)", "buzz")
                case .dropped(let cue, _):
                    heard(cue.name, "dropped")
                }
            }
        }

        mutating func heard(_ name: String, _ how: String) {
            waitingWarnings.remove(name)
            accounted[name, default: []].append(how)
        }
    }
}
