import RunWayCore

/// What the runner hears from the engine's outputs, as buzzer patterns: every callout's own
/// pattern; the too-short pattern instead of TOUCHDOWN when END landed a flight under 100 m; and,
/// in preflight, a beep when the GPS first becomes good enough to start on (said again only after
/// the signal was lost, so a fix wavering between WEAK and GOOD does not chirp).
public struct Annunciation: Sendable {
    private var gpsReadySaid = false

    public init() {}

    public struct Sound: Sendable, Equatable {
        /// What the runner hears it as, for logs ("TOUCHDOWN", "too short", "GPS ready").
        public var name: String
        public var pattern: BuzzerPattern
        public var urgent: Bool
    }

    /// The sounds for one input's outputs, in order.
    public mutating func sounds(for outputs: [EngineOutput]) -> [Sound] {
        let tooShort = outputs.contains {
            if case .ended(.landed(let flight)) = $0 { flight.status == .tooShort } else { false }
        }
        var sounds: [Sound] = []
        for output in outputs {
            switch output {
            case .callout(let timed):
                if case .touchdown = timed.callout, tooShort {
                    sounds.append(Sound(name: "too short", pattern: .tooShort, urgent: false))
                } else {
                    sounds.append(
                        Sound(
                            name: timed.callout.text, pattern: .pattern(for: timed.callout),
                            urgent: timed.callout.isUrgent))
                }
            case .state(let pfd):
                if pfd.signal == .noSignal {
                    gpsReadySaid = false
                } else if pfd.signal.passesChecklist, !gpsReadySaid {
                    gpsReadySaid = true
                    if pfd.phase == .preflight || pfd.phase == .touchdown {
                        sounds.append(Sound(name: "GPS ready", pattern: .gpsReady, urgent: false))
                    }
                }
            case .began, .ended: break
            }
        }
        return sounds
    }
}
