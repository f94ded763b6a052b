import RunWayCore

/// A phrase in words, in the board's language: what the speech engine is given.
public enum Phrasebook {
    /// `units`: the unit distances and paces are said in (splits are the engine's, in it too).
    public static func text(_ phrase: Phrase, in language: VoiceLanguage, units: DistanceUnit = .kilometre)
        -> String
    {
        switch language {
        case .english: EnglishPhrases(unit: units).text(phrase)
        case .korean: KoreanPhrases(unit: units).text(phrase)
        }
    }
}
