import Foundation
import RunWayCore
import RunWayHardware
import Testing

@testable import RunWayVoice

/// Every phrase the board says, in both languages, against Tests/Fixtures/voice/phrases-LANG.txt
/// (`name<TAB>text` a line): every `runway say` example and the edge cases of the numbers. After
/// an intended change, RUNWAY_UPDATE_GOLDEN=1 rewrites them (as for the other golden files), and
/// the diff is reviewed like code — by a speaker of the language for the Korean one.
@Suite("phrases, golden files")
struct PhraseGoldenTests {
    static let edgeCases: [(name: String, phrase: Phrase)] = [
        ("edge-zero-metres", .touchdown(distance: 0, time: 0, pace: nil)),
        ("edge-minimums-zero", .minimums(metresToGo: 0)),
        ("edge-59.6-seconds", .missionComplete(time: 59.6)),
        ("edge-over-an-hour", .touchdown(distance: 12_345, time: 3871, pace: 313.6)),
        ("edge-two-hours", .missionComplete(time: 7200)),
        ("edge-no-pace", .status(distance: 800, time: 300, pace: nil, ahead: nil)),
        ("edge-behind", .status(distance: 3000, time: 1065, pace: 355, ahead: -75)),
        ("edge-on-target", .status(distance: 1000, time: 331.5, pace: 331, ahead: -1.5)),
        ("edge-sink-rate-no-pace", .sinkRate(pace: nil, target: 330)),
        ("edge-split-flat", .split(order: 11, time: 300, pace: 300)),
        ("edge-split-oh", .split(order: 21, time: 305, pace: 305)),
        ("edge-tenths", .touchdown(distance: 5100, time: 1600, pace: 313.7)),
        ("edge-pause-manual", .pause(.manual)),
        ("edge-countdown-1", .countdown(1)),
        ("edge-nan", .status(distance: .nan, time: .infinity, pace: .nan, ahead: .nan)),
        ("edge-huge", .touchdown(distance: 1e300, time: 1e300, pace: 1e300)),
        ("edge-text", .text("BAROMETER LOST")),
        ("edge-footpod-lost", .sensorLost(.footpod)),
        ("edge-footpod-back", .sensorBack(.footpod)),
    ]

    static func rendered(_ language: VoiceLanguage) -> String {
        let examples = Phrase.exampleNames.map { ($0, Phrase.example(named: $0)!) }
        return (examples + edgeCases).map { "\($0.0)\t\(Phrasebook.text($0.1, in: language))\n" }.joined()
    }

    static var sourceFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/voice")
    }

    @Test(arguments: VoiceLanguage.allCases)
    func phrasesMatchTheirGoldenFile(_ language: VoiceLanguage) throws {
        let output = Self.rendered(language)
        let name = "phrases-\(language.rawValue).txt"
        if ProcessInfo.processInfo.environment["RUNWAY_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.sourceFolder, withIntermediateDirectories: true)
            try output.write(
                to: Self.sourceFolder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            return
        }
        let url = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/voice/\(name)"))
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(output == golden, "\(name) differs: RUNWAY_UPDATE_GOLDEN=1 to rewrite, then review the diff")
    }

    @Test func everyExampleNameHasItsPhraseAndNoOtherNameDoes() {
        #expect(Set(Phrase.exampleNames).count == Phrase.exampleNames.count)
        for name in Phrase.exampleNames { #expect(Phrase.example(named: name) != nil, "\(name)") }
        #expect(Phrase.exampleNames.contains("fault-barometer-missing"))
        #expect(Phrase.exampleNames.contains("fault-battery-critical"))
        #expect(!Phrase.exampleNames.contains("text"))
        #expect(Phrase.example(named: "text") == nil)
        #expect(Phrase.example(named: "fault-nonsense") == nil)
        #expect(Phrase.example(named: "split")?.kind == .split)
    }

    @Test func theSentencesTheBriefAsksFor() {
        func en(_ phrase: Phrase) -> String { Phrasebook.text(phrase, in: .english) }
        func ko(_ phrase: Phrase) -> String { Phrasebook.text(phrase, in: .korean) }
        #expect(en(.split(order: 3, time: 338, pace: 338)) == "kilometer three, five thirty-eight")
        #expect(
            en(.lastSplit(metres: 320, time: 102, pace: 321))
                == "last three hundred and twenty meters, one minute forty-two, pace five twenty-one")
        #expect(en(.sinkRate(pace: 370, target: 330)) == "sink rate, too slow, six ten for five thirty")
        #expect(en(.minimums(metresToGo: 200)) == "minimums, two hundred meters to go")
        #expect(en(.missionComplete(time: 1632)) == "mission complete, twenty-seven minutes twelve seconds")
        #expect(
            en(.touchdown(distance: 5180, time: 1632, pace: 315))
                == "touchdown, five point one eight kilometers, twenty-seven minutes twelve seconds, average pace five fifteen"
        )
        #expect(
            en(.status(distance: 5200, time: 1620, pace: 330, ahead: 12))
                == "five point two kilometers, twenty-seven minutes, pace five thirty, twelve seconds ahead")
        #expect(en(.status(distance: 5200, time: 1620, pace: 330, ahead: -2)).hasSuffix("on target"))
        #expect(ko(.split(order: 3, time: 338, pace: 338)) == "삼 킬로미터, 오 분 삼십팔 초")
        #expect(ko(.sinkRate(pace: 370, target: 330)) == "페이스 느림, 육 분 십 초, 목표 오 분 삼십 초")
        #expect(ko(.overspeed(pace: 300, target: 330)).hasPrefix("페이스 빠름, "))
        #expect(ko(.countdown(3)) == "셋")
        #expect(ko(.tooShort) == "기록되지 않음, 너무 짧음")
        #expect(ko(.touchdown(distance: 5180, time: 1632, pace: 315)).hasPrefix("운동 종료, "))
    }

    @Test func warningsAreWhatTheRunnerMustActOnNow() {
        #expect(Phrase.sinkRate(pace: nil, target: 330).priority == .warning)
        #expect(Phrase.signalLost.priority == .warning)
        #expect(Phrase.fault(.batteryCritical).priority == .warning)
        #expect(Phrase.fault(.batteryLow).priority == .information)
        #expect(Phrase.split(order: 1, time: 300, pace: 300).priority == .information)
        #expect(Phrase.Priority.information < .warning)
    }
}
