import Foundation
import RunWayCore
import Testing

@testable import RunWayCLI

@Suite("Trace reader: gpsd JSON lines and pressure CSV, bad lines reported with their number")
struct TraceReaderTests {
    static let tpv =
        #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:00.000Z","lat":37.5,"lon":127.0,"eph":20.5,"speed":3.1,"track":90.0,"altMSL":35.0}"#

    @Test func readsATPVIntoAFix() throws {
        let trace = TraceReader.gps(text: Self.tpv, name: "t.json")
        #expect(trace.diagnostics == [])
        let fix = try #require(trace.fixes.first)
        #expect(fix.time == UTCTime.parse("2026-10-03T07:00:00Z"))
        #expect(fix.coordinate == Coordinate(latitude: 37.5, longitude: 127.0))
        #expect(fix.horizontalAccuracy == 20.5)
        #expect(fix.speed == 3.1)
        #expect(fix.track == 90)
        #expect(fix.altitude == 35)
    }

    @Test func otherClassesAndTimelessTPVsAreIgnoredQuietly() {
        let text = """
            {"class":"VERSION","release":"3.22"}
            {"class":"TPV","mode":1}
            {"class":"SKY","satellites":[]}
            \(Self.tpv)
            """
        let trace = TraceReader.gps(text: text, name: "t.json")
        #expect(trace.diagnostics.isEmpty)
        #expect(trace.fixes.count == 1)
    }

    @Test func absentValuesAreNilNeverZero() throws {
        let text = #"{"class":"TPV","mode":2,"time":"2026-10-03T07:00:00Z","lat":37.5,"lon":127.0}"#
        let fix = try #require(TraceReader.gps(text: text, name: "t").fixes.first)
        #expect(fix.speed == nil && fix.track == nil && fix.altitude == nil && fix.horizontalAccuracy == nil)
    }

    @Test func epxAndEpyStandInForEph() throws {
        let text =
            #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:00Z","lat":37.5,"lon":127.0,"epx":7.4,"epy":8.8}"#
        #expect(try #require(TraceReader.gps(text: text, name: "t").fixes.first).horizontalAccuracy == 8.8)
    }

    @Test func oneFixPerEpochTheFirstWithAPosition() {
        let second = Self.tpv.replacingOccurrences(of: "37.5", with: "37.6")
        let trace = TraceReader.gps(text: Self.tpv + "\n" + second, name: "t")
        #expect(trace.fixes.count == 1)
        #expect(trace.fixes.first?.coordinate.latitude == 37.5)
    }

    @Test func badLinesAreReportedWithTheirNumberAndTheRestIsRead() {
        let later = Self.tpv.replacingOccurrences(of: "07:00:00", with: "07:00:05")
        let earlier = Self.tpv.replacingOccurrences(of: "07:00:00", with: "06:59:00")
        let text = [
            Self.tpv,
            "{not json",
            #"{"class":"TPV","mode":3,"time":"yesterday","lat":1,"lon":2}"#,
            #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:01Z","lat":"NaN","lon":2}"#,
            #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:02Z","lat":95,"lon":2}"#,
            later,
            earlier,
            #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:09Z","lat":37.5,"lon":127.0,"speed":"fast"}"#,
        ].joined(separator: "\n")
        let trace = TraceReader.gps(text: text, name: "run.json")
        #expect(trace.fixes.count == 3)
        let lines = trace.diagnostics.map(\.line)
        #expect(lines == [2, 3, 4, 5, 7, 8])
        #expect(trace.diagnostics[0].description == "run.json:2: not a JSON object — line skipped")
        #expect(trace.diagnostics[4].message.contains("goes backwards"))
        #expect(trace.fixes.last?.speed == nil)
    }

    @Test func pressureCSVWithHeaderAndBadRows() {
        let text = """
            time,pressure_pa
            2026-10-03T07:00:00Z,101325.0
            2026-10-03T07:00:01Z,nan
            2026-10-03T07:00:02Z,12
            2026-10-03T07:00:03Z
            not-a-time,101300
            2026-10-03T06:59:59Z,101320
            2026-10-03T07:00:04Z,101321.5
            """
        let trace = TraceReader.pressure(text: text, name: "p.csv")
        #expect(trace.samples.map(\.pascals) == [101_325, 101_321.5])
        #expect(trace.diagnostics.map(\.line) == [3, 4, 5, 6, 7])
        #expect(trace.diagnostics[0].message == "pressure \"nan\" is not a number — row skipped")
    }

    @Test func utcTimesRoundTrip() {
        let t = UTCTime.parse("2018-08-20T09:47:37.000Z")
        #expect(t == 1_534_758_457)
        #expect(UTCTime.format(1_534_758_457) == "2018-08-20T09:47:37Z")
        #expect(UTCTime.format(1_534_758_457.25) == "2018-08-20T09:47:37.250Z")
        #expect(UTCTime.parse("2018-08-20T11:47:37+02:00") == t)
        #expect(UTCTime.parse("2018-02-30T09:47:37") == nil)
        #expect(UTCTime.parse("") == nil)
    }

    @Test func theRecordedGpsdTraceReads() throws {
        let url = try #require(
            Bundle.module.url(forResource: "Fixtures/traces/demo-mission.gpsd", withExtension: "json"))
        let trace = try TraceReader.gps(path: url.path)
        #expect(trace.diagnostics.isEmpty)
        #expect(trace.fixes.count > 1700)
    }
}

@Suite("Trace reader: line endings")
struct LineEndingTests {
    @Test func crlfLinesAsGpspipePrintsThem() {
        let text =
            TraceReaderTests.tpv + "\r\n"
            + TraceReaderTests.tpv.replacingOccurrences(of: "07:00:00", with: "07:00:01") + "\r\n"
        let trace = TraceReader.gps(text: text, name: "t")
        #expect(trace.fixes.count == 2)
        #expect(trace.diagnostics.isEmpty)
    }
}
