/// The language the board speaks (`voice.language` in the configuration): English or Korean.
public enum VoiceLanguage: String, Sendable, CaseIterable, Equatable {
    case english = "en"
    case korean = "ko"
}
