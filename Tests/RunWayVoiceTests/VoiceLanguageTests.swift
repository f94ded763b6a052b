import RunWayCore
import Testing

@Suite struct VoiceLanguageTests {
    @Test func codesAreTheConfigurationsWords() {
        #expect(VoiceLanguage(rawValue: "en") == .english)
        #expect(VoiceLanguage(rawValue: "ko") == .korean)
        #expect(VoiceLanguage(rawValue: "fr") == nil)
    }
}
