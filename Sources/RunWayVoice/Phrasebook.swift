import RunWayCore

/// A phrase in words, in the board's language: what the speech engine is given.
public enum Phrasebook {
    public static func text(_ phrase: Phrase, in language: VoiceLanguage) -> String {
        switch language {
        case .english: EnglishPhrases.text(phrase)
        case .korean: KoreanPhrases.text(phrase)
        }
    }
}
