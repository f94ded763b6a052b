import RunWayCore
import Testing

@testable import RunWayVoice

@Suite struct NumberWordsTests {
    @Test func englishWholeNumbers() {
        let cases: [(Int, String)] = [
            (0, "zero"), (7, "seven"), (11, "eleven"), (12, "twelve"), (13, "thirteen"), (15, "fifteen"),
            (19, "nineteen"), (20, "twenty"), (21, "twenty-one"), (38, "thirty-eight"), (99, "ninety-nine"),
            (100, "one hundred"), (101, "one hundred and one"), (320, "three hundred and twenty"),
            (999, "nine hundred and ninety-nine"), (1000, "one thousand"), (1005, "one thousand and five"),
            (1200, "one thousand two hundred"), (21_021, "twenty-one thousand and twenty-one"),
            (100_000, "one hundred thousand"),
            (999_999, "nine hundred and ninety-nine thousand nine hundred and ninety-nine"),
            (1_000_000, "one million"), (-5, "minus five"),
        ]
        for (n, words) in cases { #expect(EnglishNumbers.words(n) == words, "\(n)") }
    }

    @Test func koreanSinoNumbers() {
        let cases: [(Int, String)] = [
            (0, "영"), (1, "일"), (10, "십"), (11, "십일"), (15, "십오"), (19, "십구"), (20, "이십"),
            (21, "이십일"), (38, "삼십팔"), (100, "백"), (101, "백일"), (320, "삼백이십"), (1000, "천"),
            (1001, "천일"), (2500, "이천오백"), (10_000, "만"), (12_345, "만 이천삼백사십오"),
            (100_000, "십만"), (110_000, "십일만"), (999_999, "구십구만 구천구백구십구"),
            (1_000_000, "백만"), (100_000_000, "일억"), (-3, "마이너스 삼"),
        ]
        for (n, words) in cases { #expect(KoreanNumbers.sino(n) == words, "\(n)") }
    }

    @Test func koreanNativeCounting() {
        #expect([3, 2, 1].map { KoreanNumbers.native($0) } == ["셋", "둘", "하나"])
        #expect(KoreanNumbers.native(11) == "열하나")
        #expect(KoreanNumbers.native(21) == "스물하나")
        #expect(KoreanNumbers.native(1, beforeCounter: true) == "한")
        #expect(KoreanNumbers.native(20, beforeCounter: true) == "스무")
        #expect(KoreanNumbers.native(21, beforeCounter: true) == "스물한")
        #expect(KoreanNumbers.native(100) == "백")  // past 99: Sino-Korean
        #expect(KoreanNumbers.native(0) == "영")
    }

    @Test func extremesNeverTrap() {
        #expect(EnglishNumbers.words(.max) == EnglishNumbers.words(SpokenNumber.cap))
        #expect(EnglishNumbers.words(.min) == "minus " + EnglishNumbers.words(SpokenNumber.cap))
        #expect(KoreanNumbers.sino(.min).hasPrefix("마이너스"))
        #expect(SpokenNumber.whole(.nan) == nil)
        #expect(SpokenNumber.whole(.infinity) == nil)
        #expect(SpokenNumber.whole(1e300) == SpokenNumber.cap)
        #expect(SpokenNumber.whole(-1e300) == -SpokenNumber.cap)
        #expect(SpokenNumber.pace(.nan) == nil)
        #expect(SpokenNumber.pace(-300) == nil)
        #expect(SpokenNumber.pace(1e300) == nil)
        #expect(SpokenNumber.seconds(-.infinity) == 0)
        #expect(SpokenNumber.centikilometres(.nan) == nil)
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e300, -0.0, Double.greatestFiniteMagnitude]
        {
            for language in VoiceLanguage.allCases {
                let said = Phrasebook.text(
                    .touchdown(distance: value, time: value, pace: value), in: language)
                #expect(!said.isEmpty)
                _ = Phrasebook.text(
                    .status(distance: value, time: value, pace: value, ahead: value), in: language)
                _ = Phrasebook.text(.lastSplit(metres: value, time: value, pace: value), in: language)
                _ = Phrasebook.text(.sinkRate(pace: value, target: value), in: language)
            }
        }
    }

    @Test func paceDurationAndDistanceTheWayARunnerSaysThem() {
        #expect(EnglishPhrases.paceWords(338) == "five thirty-eight")
        #expect(EnglishPhrases.paceWords(305) == "five oh five")
        #expect(EnglishPhrases.paceWords(300) == "five flat")
        #expect(EnglishPhrases.paceWords(nil) == nil)
        #expect(EnglishPhrases.duration(1632) == "twenty-seven minutes twelve seconds")
        #expect(EnglishPhrases.duration(3871) == "one hour five minutes")
        #expect(EnglishPhrases.duration(3840) == "one hour four minutes")
        #expect(EnglishPhrases.duration(59.6) == "one minute")
        #expect(EnglishPhrases.duration(1) == "one second")
        #expect(EnglishPhrases.duration(102, clock: true) == "one minute forty-two")
        #expect(EnglishPhrases.distance(5180) == "five point one eight kilometres")
        #expect(EnglishPhrases.distance(5100) == "five point one kilometres")
        #expect(EnglishPhrases.distance(5004) == "five kilometres")
        #expect(EnglishPhrases.distance(5050) == "five point zero five kilometres")
        #expect(EnglishPhrases.distance(1000) == "one kilometre")
        #expect(EnglishPhrases.distance(999.6) == "one kilometre")
        #expect(EnglishPhrases.distance(800) == "eight hundred metres")
        #expect(EnglishPhrases.distance(0) == "zero metres")
        #expect(KoreanPhrases.paceWords(338) == "오 분 삼십팔 초")
        #expect(KoreanPhrases.paceWords(300) == "오 분")
        #expect(KoreanPhrases.duration(3840) == "한 시간 사 분")
        #expect(KoreanPhrases.duration(7200) == "두 시간")
        #expect(KoreanPhrases.distance(5180) == "오 점 일팔 킬로미터")
        #expect(KoreanPhrases.distance(3000) == "삼 킬로미터")
        #expect(KoreanPhrases.distance(800) == "팔백 미터")
    }
}
