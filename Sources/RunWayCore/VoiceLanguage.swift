/// The language the board speaks (`voice.language` in the configuration): English or Korean.
/// In the core so the configuration, the phrase tables and the synthesisers share one name for it.
public enum VoiceLanguage: String, Sendable, CaseIterable, Equatable {
    case english = "en"
    case korean = "ko"
}

/// Who tells the runner (`voice.output`): the buzzer alone, the voice alone (the buzzer only for
/// what has no words, the END hold's beep), or both — each pattern, then its words.
public enum VoiceOutput: String, Sendable, CaseIterable, Equatable {
    case buzzer
    case voice
    case both
}
