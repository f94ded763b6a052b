/// A counted fix on the route, with its flight elapsed time.
public struct RoutePoint: Sendable, Equatable {
    public var elapsed: Double
    public var coordinate: Coordinate

    public init(elapsed: Double, coordinate: Coordinate) {
        self.elapsed = elapsed
        self.coordinate = coordinate
    }
}

/// Douglas–Peucker line simplification in metres, in a local projection of the route. Iterative
/// with an explicit stack, so a 24-hour route cannot overflow the call stack.
public enum DouglasPeucker {
    /// The seed's bounds: below GPS error a tolerance means nothing; above 18 m the shape blurs.
    public static let toleranceRange = 3.0...18.0

    /// Tolerance for a route of `length` metres: 0.2 % of its length, clamped to 3–18 m
    /// (a 5 km run keeps 10 m; a marathon 18 m).
    public static func tolerance(forLength length: Double) -> Double {
        min(max(length * 0.002, toleranceRange.lowerBound), toleranceRange.upperBound)
    }

    public static func simplify(_ points: [RoutePoint], tolerance: Double) -> [RoutePoint] {
        guard points.count > 2 else { return points }
        let projection = LocalProjection(origin: points[0].coordinate)
        let xy = points.map { projection.project($0.coordinate) }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack: [(Int, Int)] = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var worst = 0.0
            var worstIndex = first
            for i in (first + 1)..<last {
                let d = distance(from: xy[i], toSegment: xy[first], xy[last])
                if d > worst {
                    worst = d
                    worstIndex = i
                }
            }
            if worst > tolerance {
                keep[worstIndex] = true
                stack.append((first, worstIndex))
                stack.append((worstIndex, last))
            }
        }
        return points.indices.compactMap { keep[$0] ? points[$0] : nil }
    }

    static func distance(
        from p: (east: Double, north: Double), toSegment a: (east: Double, north: Double),
        _ b: (east: Double, north: Double)
    ) -> Double {
        let dx = b.east - a.east
        let dy = b.north - a.north
        let lengthSquared = dx * dx + dy * dy
        var t = 0.0
        if lengthSquared > 0 {
            t = min(1, max(0, ((p.east - a.east) * dx + (p.north - a.north) * dy) / lengthSquared))
        }
        let ex = p.east - (a.east + t * dx)
        let ey = p.north - (a.north + t * dy)
        return (ex * ex + ey * ey).squareRoot()
    }
}

/// A route ordered by elapsed time.
public struct Route: Sendable, Equatable {
    public var points: [RoutePoint]

    public init(points: [RoutePoint]) {
        self.points = points
    }

    /// Path length in metres.
    public var length: Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + Geodesy.distance($1.0.coordinate, $1.1.coordinate) }
    }

    /// The route simplified with the length-dependent Douglas–Peucker tolerance.
    public func simplified() -> Route {
        Route(points: DouglasPeucker.simplify(points, tolerance: DouglasPeucker.tolerance(forLength: length)))
    }

    /// The position at `elapsed`, interpolated between the two route points around it; the ends
    /// hold before the first and after the last point. `nil` for an empty route.
    public func position(at elapsed: Double) -> Coordinate? {
        guard let first = points.first, let last = points.last else { return nil }
        if elapsed <= first.elapsed { return first.coordinate }
        if elapsed >= last.elapsed { return last.coordinate }
        var low = 0
        var high = points.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if points[mid].elapsed <= elapsed { low = mid } else { high = mid }
        }
        let a = points[low]
        let b = points[high]
        let span = b.elapsed - a.elapsed
        let f = span > 0 ? (elapsed - a.elapsed) / span : 0
        return Coordinate(
            latitude: a.coordinate.latitude + (b.coordinate.latitude - a.coordinate.latitude) * f,
            longitude: a.coordinate.longitude + (b.coordinate.longitude - a.coordinate.longitude) * f)
    }
}
