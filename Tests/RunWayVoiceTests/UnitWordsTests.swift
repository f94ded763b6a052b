import RunWayCore
import Testing

@testable import RunWayVoice

/// Miles (issue 27's settings): a runner who counts in miles hears miles, and paces per mile.
@Suite("The voice in the runner's unit: kilometres or miles")
struct UnitWordsTests {
    @Test func aMileSplitSaysItsNumberAndItsTimeWhichIsItsPace() {
        // A mile in 8:50 (5:29 /km).
        let phrase = Phrase.split(order: 3, time: 530, pace: 530 / 1.609344)
        #expect(Phrasebook.text(phrase, in: .english, units: .mile) == "mile three, eight fifty")
        #expect(Phrasebook.text(phrase, in: .korean, units: .mile) == "삼 마일, 팔 분 오십 초")
        // Kilometres are as they were.
        #expect(
            Phrasebook.text(.split(order: 3, time: 338, pace: 338), in: .english)
                == "kilometer three, five thirty-eight")
    }

    @Test func distancesAndPacesAreSaidInMiles() {
        let touchdown = Phrase.touchdown(distance: 5000, time: 1650, pace: 330)
        #expect(
            Phrasebook.text(touchdown, in: .english, units: .mile)
                == "touchdown, three point one one miles, twenty-seven minutes thirty seconds, average pace eight fifty-one"
        )
        let alert = Phrase.sinkRate(pace: 370, target: 330)
        #expect(
            Phrasebook.text(alert, in: .english, units: .mile)
                == "sink rate, too slow, nine fifty-five for eight fifty-one")
        // Under a mile, in meters, as under a kilometre.
        #expect(
            Phrasebook.text(.minimums(metresToGo: 50), in: .english, units: .mile)
                == "minimums, fifty meters to go")
        #expect(
            Phrasebook.text(
                .status(distance: 1609.344, time: 530, pace: 329, ahead: nil), in: .english, units: .mile
            )
            .hasPrefix("one mile, eight minutes fifty seconds"))
    }
}
