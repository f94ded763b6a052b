import Foundation
import RunWayCore
import Testing

/// A calendar day exists or it is not a time: 30 February, 31 April and 29 February of a common
/// year are refused wherever a time is read (traces, pressure files, the socket's sent_at).
@Suite("Civil dates: only days that exist")
struct CivilDateTests {
    @Test(arguments: [
        "2026-02-30T07:00:00Z", "2026-02-29T07:00:00Z", "2026-04-31T07:00:00Z", "2026-06-31T07:00:00Z",
        "2026-09-31T07:00:00Z", "2026-11-31T07:00:00Z", "2100-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
        "2026-00-10T00:00:00Z", "2026-13-10T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-32T00:00:00Z",
    ])
    func aDayThatDoesNotExistIsNoTime(_ text: String) {
        #expect(UTCTime.parse(text) == nil, "\(text)")
    }

    @Test(arguments: [
        "2024-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2026-02-28T23:59:59Z", "2026-04-30T00:00:00Z",
        "2026-12-31T23:59:60Z",
    ])
    func aDayThatExistsIsATime(_ text: String) {
        #expect(UTCTime.parse(text) != nil, "\(text)")
    }

    @Test func daysInAMonth() {
        #expect(UTCTime.daysIn(year: 2026, month: 2) == 28)
        #expect(UTCTime.daysIn(year: 2024, month: 2) == 29)
        #expect(UTCTime.daysIn(year: 2100, month: 2) == 28)
        #expect(UTCTime.daysIn(year: 2000, month: 2) == 29)
        #expect(
            (1...12).map { UTCTime.daysIn(year: 2026, month: $0) } == [
                31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
            ])
        #expect(UTCTime.daysIn(year: 2026, month: 13) == 0)
    }
}

/// A value from outside (a stored row, a trace) past anything meaningful is shown as unknown,
/// never converted to an Int that traps.
@Suite("Formatting a number from outside never traps")
struct TotalFormattingTests {
    @Test(arguments: [1e300, -1e300, Double.infinity, Double.nan, 9.3e18, -9.3e18])
    func aHugeValueIsShownAsUnknown(_ value: Double) {
        #expect(Pace.format(value) == "--:--")
        #expect(UTCTime.duration(value) == "--")
    }

    @Test func aHugeTimeIsFormattedWithoutTrapping() {
        #expect(UTCTime.format(1e300) == "invalid time")
        #expect(UTCTime.format(.nan) == "invalid time")
        #expect(UTCTime.format(0) == "1970-01-01T00:00:00Z")
    }
}

/// A mission from outside (the socket, the configuration, `--mission`, a stored row) is one
/// value checked in one place: `Mission(checkedPace:deviation:distance:)`.
@Suite("Missions: every target within a runner's range")
struct MissionRangeTests {
    @Test func aMissionInsideTheRangesIsMade() throws {
        let mission = try Mission(checkedPace: 330, deviation: 15, distance: 5000)
        #expect(mission == Mission(targetPace: 330, allowedDeviation: 15, targetDistance: 5000))
    }

    @Test(arguments: [
        (0.0, 15.0, 5000.0, Mission.Invalid.pace(0)), (1201, 15, 5000, .pace(1201)),
        (1e300, 15, 5000, .pace(1e300)), (330, 0, 5000, .deviation(0)), (330, 121, 5000, .deviation(121)),
        (330, -.infinity, 5000, .deviation(-.infinity)), (330, 15, 99, .distance(99)),
        (330, 15, 500_001, .distance(500_001)),
    ])
    func aTargetOutsideItsRangeIsRefusedNamingIt(
        _ pace: Double, _ deviation: Double, _ distance: Double, _ expected: Mission.Invalid
    ) {
        #expect(throws: expected) { try Mission(checkedPace: pace, deviation: deviation, distance: distance) }
    }

    @Test func notANumberIsRefused() {
        #expect(throws: Mission.Invalid.self) {
            try Mission(checkedPace: .nan, deviation: 15, distance: 5000)
        }
        #expect(throws: Mission.Invalid.self) {
            try Mission(checkedPace: 330, deviation: .nan, distance: 5000)
        }
        #expect(throws: Mission.Invalid.self) { try Mission(checkedPace: 330, deviation: 15, distance: .nan) }
    }

    @Test func theRefusalSaysTheRange() {
        #expect(Mission.Invalid.pace(1e300).description.contains("2:00–20:00 per km"))
        #expect(Mission.Invalid.deviation(0).description.contains("1–120 s per km"))
        #expect(Mission.Invalid.distance(5).description.contains("100 m–500 km"))
    }

    @Test(arguments: [
        ("5:30", 330.0), ("2:00", 120), ("20:00", 1200), ("05:30", 330), ("0:59", 59),
    ])
    func aPaceReads(_ text: String, _ seconds: Double) {
        #expect(Mission.pace(parsing: text) == seconds)
    }

    @Test(arguments: [
        "999999999999999999:00", "99999999999999999999999999:00", "5:3", "5:60", "-5:30", "+5:30", "5:-1",
        "5", ":30", "5:30:00", "", "٥:٣٠", "5.0:30", " 5:30", "5:30 ", "123:00",
    ])
    func anythingElseIsNoPace(_ text: String) {
        #expect(Mission.pace(parsing: text) == nil, "\(text)")
    }

    /// Random text of the pace's own characters never traps and never reads outside M:SS.
    @Test func anyTextIsAPaceOrNone() {
        var state: UInt64 = 22
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let alphabet = Array("0123456789:+-. 9999999999")
        for _ in 0..<50_000 {
            var text = ""
            for _ in 0..<(next() % 40) { text.append(alphabet[next() % alphabet.count]) }
            if let seconds = Mission.pace(parsing: text) { #expect((0..<6000).contains(seconds), "\(text)") }
        }
    }
}

@Suite("Heart-rate and time missions: every target within a runner's range")
struct HeartRateMissionRangeTests {
    let band = Mission.HeartRateBand(low: 140, high: 155)

    @Test func aHeartRateMissionOverATimeIsMade() throws {
        let mission = try Mission(checkedPace: nil, heartRate: band, goal: .duration(1800))
        #expect(mission.targetPace == nil && mission.targetDistance == nil && mission.targetDuration == 1800)
    }

    @Test(arguments: [
        (Mission.Goal.duration(59), Mission.Invalid.duration(59)), (.duration(172_801), .duration(172_801)),
        (.duration(.nan), .duration(.nan)), (.distance(99), .distance(99)),
    ])
    func aGoalOutsideItsRangeIsRefused(_ goal: Mission.Goal, _ expected: Mission.Invalid) {
        #expect(throws: Mission.Invalid.self) { try Mission(checkedPace: nil, heartRate: band, goal: goal) }
        if case .duration(let v) = goal, v.isNaN { return }  // NaN is never equal to itself
        #expect(throws: expected) { try Mission(checkedPace: nil, heartRate: band, goal: goal) }
    }

    @Test func withoutAPaceOrAHeartRateThereIsNothingToFlyBy() {
        #expect(throws: Mission.Invalid.noTarget) {
            try Mission(checkedPace: nil, heartRate: nil, goal: .distance(5000))
        }
    }

    @Test(arguments: [(155.0, 140.0), (140, 144.9), (59, 100), (150, 231), (.nan, 150), (140, .infinity)])
    func aBandThatCannotBeHeldIsRefused(_ low: Double, _ high: Double) {
        #expect(throws: Mission.Invalid.self) { try Mission.HeartRateBand(checkedLow: low, high: high) }
    }

    @Test func aZoneOutsideOneToFiveIsRefused() throws {
        #expect(throws: Mission.Invalid.zone(6)) { try Mission.HeartRateBand(zone: 6, of: .unconfigured) }
        #expect(try Mission.HeartRateBand(zone: 5, of: .unconfigured) == .init(low: 171, high: 190, zone: 5))
    }

    @Test func theRefusalSaysTheRange() {
        #expect(Mission.Invalid.duration(5).description.contains("1 minute–48 hours"))
        #expect(
            Mission.Invalid.heartRate(low: 150, high: 140).description.contains(
                "60–230 bpm at least 5 bpm wide"))
        #expect(Mission.Invalid.noTarget.description == "a mission needs a pace or a heart-rate target")
    }
}
