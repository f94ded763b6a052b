import Testing

@testable import RunWayCore

@Suite("The saved route carries the stated distance: corners and outages drawn as run")
struct RouteShapeTests {
    func length(_ points: [SIMD2<Double>]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + RouteShape.norm($1.1 - $1.0) }
    }

    /// An outage around a city corner: in east along y = 0, out north along x = 0, 60 m run
    /// each way. The smoother's bridge is a wide arc (here the chord); the two legs its headings
    /// meet at are the corner, and they are the 120 m credited across it.
    @Test func anOutageRunThroughIsDrawnAsTheLegsItsHeadingsMeetAt() {
        var points = [SIMD2<Double>(-63, 0), SIMD2(-60, 0)]
        // 39 bridged points on the chord, then the exit fixes.
        for k in 1...39 { points.append(SIMD2(-60, 0) + SIMD2(60, 60) * (Double(k) / 40)) }
        points += [SIMD2(0, 60), SIMD2(0, 63)]
        let distances = points.indices.map { k in
            k <= 1 ? 3.0 * Double(k) : k <= 41 ? 3 + 3 * Double(k - 1) : 123 + 3 * Double(k - 41)
        }
        RouteShape.bridge(
            &points, 2..<41, distances: distances, length: 120, entry: SIMD2(1, 0), exit: SIMD2(0, 1))
        #expect(abs(length(Array(points[1...41])) - 120) < 0.5)
        // The bridge's middle point is the corner.
        #expect(RouteShape.norm(points[21] - SIMD2(0, 0)) < 1.5)
        // Each point sits at its share of the distance: the first 10 are on the way east.
        #expect(abs(points[11].y) < 1e-6 && abs(points[11].x - (-30)) < 1.5)
    }

    /// An outage over a turn-around (east in, west out, 40 m apart): drawn as legs that run on
    /// east before turning, not back over the way the runner came.
    @Test func aTurnAroundIsDrawnAheadOfItsEntry() {
        var points = (0...41).map { k in SIMD2(0, 40 * Double(k) / 41) }
        let distances = points.indices.map { 180 * Double($0) / 41 }
        RouteShape.bridge(
            &points, 1..<41, distances: distances, length: 180, entry: SIMD2(1, 0), exit: SIMD2(-1, 0))
        // The legs are the 180 m; the points sampled along them cut the sharp apex by a few.
        #expect(length(points) <= 180 + 1e-9 && length(points) > 175, "\(length(points))")
        for point in points[1..<41] { #expect(point.x > 0, "\(point)") }
        #expect(points[20].x > 80, "\(points[20])")
    }

    /// An outage on a straight whose credited distance is the chord: drawn on the chord.
    @Test func anOutageOnAStraightStaysOnItsChord() {
        var points = (0...50).map { SIMD2(3 * Double($0), 0) }
        let before = points
        RouteShape.bridge(
            &points, 5..<45, distances: points.map(\.x), length: 120, entry: SIMD2(1, 0), exit: SIMD2(1, 0))
        for (a, b) in zip(points, before) { #expect(RouteShape.norm(a - b) < 1e-6) }
    }

    /// A sharp 90° corner sampled once a second at 3 m/s: the samples cut it. The speeds say
    /// 3 m a step; sharpening moves the cut vertices out until the steps are that long.
    @Test func aCutCornerIsSharpenedToTheStatedDistance() {
        // True path: east to (0, 0), then north. Samples every 3 m of path, offset 1.5 m from it.
        var truth: [SIMD2<Double>] = (0..<20).map { SIMD2(-58.5 + 3 * Double($0), 0) }
        truth += (0..<20).map { SIMD2(0, 1.5 + 3 * Double($0)) }
        var points = truth
        // The sampled route rounds the corner (a smoothed velocity's reckoning).
        points[19] = SIMD2(-1.8, 0.4)
        points[20] = SIMD2(-0.4, 1.8)
        let stated = [0] + [Double](repeating: 3, count: points.count - 1)
        let before = length(points)
        #expect(before < stated.reduce(0, +) - 0.5)
        RouteShape.sharpen(&points, stated: stated, fixed: [0, points.count - 1])
        #expect(abs(length(points) - stated.reduce(0, +)) < 0.3)
        // Only the corner moved.
        for k in [0, 5, 10, 30, 39] { #expect(points[k] == truth[k]) }
    }

    /// A straight route with jitter and a little short of the speeds: no corner, nothing moves.
    @Test func aStraightIsNotBent() {
        var points = (0..<40).map { SIMD2(3 * Double($0), $0 % 2 == 0 ? 0.1 : -0.1) }
        let before = points
        RouteShape.sharpen(&points, stated: [Double](repeating: 3.1, count: 40), fixed: [0, 39])
        #expect(points == before)
    }
}
