import Foundation
import RunWayCore
import Testing

@testable import RunWayExport
@testable import RunWayStore

/// What the viewer's data file says of flights at the edges (one FDR sample, none, one route
/// point, none, 300 000): columns of one length, and a time axis that is never zero wide, so the
/// page never divides by it.
@Suite("The viewer's data at the edges: one sample, no samples, one route point, 300 000")
struct ViewerDataEdgeTests {
    static func logged(samples: Int, points: Int, elapsed: Double? = nil) -> LoggedFlight {
        let fdr = (0..<samples).map { i -> FDRSample in
            let t = Double(i * 5)
            return FDRSample(
                elapsed: t, distance: t * 3, pace: 333, heartRate: nil, cadence: nil, altitude: 0,
                heading: 90,
                paused: false)
        }
        let route = Route(
            points: (0..<points).map { i -> RoutePoint in
                let latitude = 37.5 + Double(i) * 1e-6
                let longitude = 127.1 + Double(i % 50) * 1e-5
                return RoutePoint(
                    elapsed: Double(i), coordinate: Coordinate(latitude: latitude, longitude: longitude))
            })
        let seconds = elapsed ?? Double(max(samples * 5, points))
        let flight = Flight(
            mission: nil, startTime: 1_791_010_800, endTime: 1_791_010_800 + seconds, distance: 150,
            elapsed: seconds, movingTime: seconds, splits: [], droppedTail: 150, samples: fdr, route: route,
            simplifiedRoute: route, alerts: [], averageHeartRate: nil, averageCadence: nil)
        return LoggedFlight(
            id: 7, status: .finished, source: "test", replaces: nil, engineVersion: 1, flight: flight)
    }

    /// The data file's object (the text is `RUNWAY_FLIGHT(id, {...});`).
    static func data(_ logged: LoggedFlight) throws -> [String: Any] {
        let text = ViewerData.flight(logged, bodyMass: nil)
        let prefix = "RUNWAY_FLIGHT(7, "
        #expect(text.hasPrefix(prefix) && text.hasSuffix(");\n"))
        let json = text.dropFirst(prefix.count).dropLast(3)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test(arguments: [(1, 2), (0, 50), (10, 1), (10, 0), (0, 0), (60_000, 300_000)])
    func columnsAreOneLengthAndTheTimeAxisIsNeverZeroWide(samples: Int, points: Int) throws {
        let data = try Self.data(Self.logged(samples: samples, points: points))
        let s = try #require(data["samples"] as? [String: Any])
        for column in ["t", "d", "pace", "hr", "spm", "alt", "hdg", "paused"] {
            #expect((s[column] as? [Any])?.count == samples, "\(column)")
        }
        let r = try #require(data["route"] as? [String: Any])
        for column in ["t", "lat", "lon"] { #expect((r[column] as? [Any])?.count == points, "\(column)") }
        let span = try #require(s["span_s"] as? Double, "samples.span_s")
        #expect(span > 0)
        #expect(span >= ((s["t"] as? [Double])?.last ?? 0))
    }

    @Test func oneSampleOfAZeroSecondFlightStillHasAnAxis() throws {
        let data = try Self.data(Self.logged(samples: 1, points: 1, elapsed: 0))
        let s = try #require(data["samples"] as? [String: Any])
        #expect(s["t"] as? [Double] == [0])
        #expect(s["span_s"] as? Double == 1)
        // The axis is the flight's own time, not its last sample's: a 29 min 37 s flight's FDR
        // runs to 29:37 though its last sample is at 29:35.
        let longer = try Self.data(Self.logged(samples: 356, points: 10, elapsed: 1_777))
        #expect((longer["samples"] as? [String: Any])?["span_s"] as? Double == 1_777)
    }
}
