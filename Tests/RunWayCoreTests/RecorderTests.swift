import Foundation
import RunWayCore
import Testing

@Suite("Flight Data Recorder: a sample every 5 s of elapsed time, also while paused")
struct FDRTests {
    @Test func marksEveryFiveSecondsOnce() {
        var clock = FDRClock()
        #expect(clock.marks(before: 0).isEmpty)
        #expect(clock.marks(before: 0.5) == [0])
        #expect(clock.marks(before: 12) == [5, 10])
        let again = clock.marks(before: 12)
        #expect(again.isEmpty)
        #expect(clock.marks(through: 15) == [15])
    }

    @Test func samplesContinueWhilePaused() {
        var computer = FlightComputer()
        computer.rotate()
        computer.run(speed: 3, from: 0, to: 60)
        _ = computer.handle(.togglePause(at: Track.t0 + 61))
        for t in 62...120 { _ = computer.handle(.tick(Track.t0 + Double(t))) }
        let flight = computer.land()
        let samples = flight?.samples ?? []
        #expect(samples.map(\.elapsed) == stride(from: 0.0, through: 120, by: 5).map { $0 })
        #expect(samples.last?.paused == true)
        #expect(samples.last?.pace == nil)
    }

    @Test func tenKilometresIsAboutSevenHundredTwentySamples() {
        var computer = FlightComputer()
        computer.rotate()
        computer.run(speed: 10_000.0 / 3600, from: 0, to: 3600)
        #expect(computer.land()?.samples.count == 721)
    }
}

@Suite("Route: every counted fix, Douglas–Peucker 3–18 m, position by elapsed time")
struct RouteTests {
    @Test func toleranceIsClamped() {
        #expect(DouglasPeucker.tolerance(forLength: 100) == 3)
        #expect(DouglasPeucker.tolerance(forLength: 5000) == 10)
        #expect(DouglasPeucker.tolerance(forLength: 42_195) == 18)
    }

    @Test func simplificationKeepsCornersAndDropsStraightPoints() {
        var points: [RoutePoint] = []
        for i in 0...100 {
            points.append(RoutePoint(elapsed: Double(i), coordinate: Track.coordinate(east: Double(i) * 5)))
        }
        for i in 1...100 {
            points.append(
                RoutePoint(
                    elapsed: Double(100 + i), coordinate: Track.coordinate(east: 500, north: Double(i) * 5)))
        }
        let simplified = DouglasPeucker.simplify(points, tolerance: 3)
        #expect(simplified.count == 3)
        #expect(simplified[1].elapsed == 100)
    }

    @Test func simplificationKeepsAZigZagWhole() {
        // Every point of a zig-zag is a corner: the split depth equals the point count, which an
        // iterative implementation takes in its stride.
        let points = (0..<4000).map { i in
            RoutePoint(
                elapsed: Double(i), coordinate: Track.coordinate(east: Double(i), north: i % 2 == 0 ? 0 : 20))
        }
        #expect(DouglasPeucker.simplify(points, tolerance: 3).count >= 3990)
    }

    @Test func everyDiscardedPointIsWithinTolerance() {
        let points = (0..<500).map { i in
            RoutePoint(
                elapsed: Double(i),
                coordinate: Track.coordinate(east: Double(i) * 3, north: 30 * sin(Double(i) / 40)))
        }
        let route = Route(points: DouglasPeucker.simplify(points, tolerance: 10))
        for p in points {
            let interpolated = route.position(at: p.elapsed)!
            #expect(Geodesy.distance(interpolated, p.coordinate) <= 10 * 1.5)
        }
    }

    @Test func positionIsInterpolatedByElapsedTime() {
        let route = Route(points: [
            RoutePoint(elapsed: 0, coordinate: Track.coordinate(east: 0)),
            RoutePoint(elapsed: 10, coordinate: Track.coordinate(east: 100)),
        ])
        let mid = route.position(at: 5)!
        #expect(abs(Geodesy.distance(mid, Track.coordinate(east: 50))) < 0.01)
        #expect(route.position(at: -5) == Track.coordinate(east: 0))
        #expect(route.position(at: 50) == Track.coordinate(east: 100))
        #expect(Route(points: []).position(at: 1) == nil)
    }

    @Test func theFlightKeepsEveryCountedFixAndASimplifiedCopy() {
        var computer = FlightComputer()
        computer.rotate()
        computer.run(speed: 3, from: 0, to: 200)
        let flight = computer.land()
        #expect((flight?.route.points.count ?? 0) > 100)
        #expect(flight?.simplifiedRoute.points.count == 2)
    }
}
