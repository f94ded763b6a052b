import RunWayCore
import RunWayHardware

/// One thing the runner hears: a buzzer pattern, a phrase, or both (`VoiceQueue` decides which
/// the configured output plays, and when).
public struct Cue: Sendable, Equatable {
    /// The log name, as `Annunciation.Sound.name`: "TOUCHDOWN", "too short", "GPS ready", a
    /// callout's text.
    public var name: String
    /// What the buzzer plays; nil: speech only (the last split, the status).
    public var pattern: BuzzerPattern?
    /// The buzzer's urgency, as `Annunciation`'s: an urgent pattern pre-empts a normal one.
    public var urgent: Bool
    /// What the voice says; nil: the buzzer only (the END hold's confirmation).
    public var phrase: Phrase?
    /// The flight time (GPS seconds) the callout was due; 0 when not from the engine.
    public var time: Double

    public init(name: String, pattern: BuzzerPattern?, urgent: Bool, phrase: Phrase?, time: Double = 0) {
        self.name = name
        self.pattern = pattern
        self.urgent = urgent
        self.phrase = phrase
        self.time = time
    }

    /// The phrase's priority; a buzzer-only cue is a warning when its pattern is urgent.
    public var priority: Phrase.Priority { phrase?.priority ?? (urgent ? .warning : .information) }
}
