/// The saved route's shape made to carry the stated distance (issue 26: a service measuring the
/// exported GPX must find the distance the board states, within 0.5 %).
///
/// The stated distance is the Doppler speeds summed second by second, so it keeps what a runner
/// runs at a corner; a route sampled once a second, its direction from a smoothed velocity, cuts
/// every corner (on 125 m city blocks the track came out 0.8 % short, and 1.3 % with an outage's
/// bridge rounding a corner as a wide arc). Two rules put it back where it was lost, and nowhere
/// else:
/// - `bridge`: an outage the speeds either side say was run through is drawn as the two legs
///   its entry and exit headings meet at, their apex placed so the legs are as long as the
///   distance credited across it: a city corner, as the runner ran it;
/// - `sharpen`: the metres a corner's steps are short of the speeds around it move the corner's
///   vertices outward along their bisectors, where the sampling cut them.
enum RouteShape {
    /// A vertex turning at least this much (degrees) is part of a corner.
    static let cornerTurn = 20.0
    /// Steps within this many of a corner's vertex give it their shortfall.
    static let cornerReach = 6
    /// A corner's vertex moves at most this far (m): more is no sampling's cut.
    static let maximumMove = 6.0

    /// Redraws `points[range]` (an outage's bridged points, between the fixes at
    /// `range.lowerBound − 1` and `range.upperBound`) as two legs from the entry along
    /// `entry` and into the exit along `exit` (unit headings), totalling `length`, each point at
    /// its share of `distances` (cumulative metres, the same indices as `points`).
    static func bridge(
        _ points: inout [SIMD2<Double>], _ range: Range<Int>, distances: [Double], length: Double,
        entry: SIMD2<Double>, exit: SIMD2<Double>
    ) {
        guard range.lowerBound >= 1, range.upperBound < points.count else { return }
        let a = points[range.lowerBound - 1]
        let b = points[range.upperBound]
        let chord = b - a
        let chordLength = norm(chord)
        guard chordLength > 1, length > chordLength else { return }
        let middle = (a + b) / 2
        // The way the apex lies from the chord's middle: toward where the headings meet when
        // they meet ahead of the entry and behind the exit; else, where the runner came out
        // running back (a turn-around: it ran on before it turned), ahead of the entry; else
        // square off the chord on the side the entry heading leans to.
        let normal = SIMD2(-chord.y, chord.x) / chordLength
        var toward: SIMD2<Double>
        if let meet = intersection(a, entry, b, exit), dot(meet - a, entry) > 0, dot(b - meet, exit) > 0,
            norm(meet - middle) > 0.5
        {
            toward = (meet - middle) / norm(meet - middle)
        } else if dot(entry, exit) < 0, abs(dot(normal, entry)) > 1e-6 {
            toward = dot(normal, entry) > 0 ? normal : -normal
        } else {
            toward = dot(normal, entry) >= 0 ? -normal : normal
            if abs(dot(normal, entry)) < 1e-6 { toward = normal }
        }
        // |a − apex| + |apex − b| grows with the apex's distance from the middle: bisect it.
        func legs(_ t: Double) -> Double { norm(middle + toward * t - a) + norm(b - middle - toward * t) }
        var low = 0.0
        var high = length
        for _ in 0..<60 {
            let t = (low + high) / 2
            if legs(t) < length { low = t } else { high = t }
        }
        let apex = middle + toward * low
        let first = norm(apex - a)
        let second = norm(b - apex)
        let start = distances[range.lowerBound - 1]
        let span = distances[range.upperBound] - start
        guard span > 0, first + second > 0 else { return }
        for k in range {
            let along = (distances[k] - start) / span * (first + second)
            points[k] =
                along <= first
                ? a + (apex - a) * (along / max(first, 1e-9))
                : apex + (b - apex) * ((along - first) / max(second, 1e-9))
        }
    }

    /// Moves corner vertices outward so each corner's steps are as long as the stated distance
    /// across them. `stated[k]` is the metres stated between points k − 1 and k (k ≥ 1);
    /// `fixed` vertices (an outage's drawn legs, a stretch's ends) stay. A move lengthens the
    /// corner by 2 sin(θ/2) of itself only to first order, so it is made in a few passes.
    static func sharpen(_ points: inout [SIMD2<Double>], stated: [Double], fixed: Set<Int>) {
        let n = points.count
        guard n >= 3 else { return }
        let limit = cornerTurn * .pi / 180
        var corners: [Int] = []
        for k in 1..<(n - 1) where !fixed.contains(k) {
            if let turn = turn(points[k - 1], points[k], points[k + 1]), turn >= limit { corners.append(k) }
        }
        guard !corners.isEmpty else { return }
        // Each step goes to the nearest corner vertex within reach, or to none.
        var owner = [Int?](repeating: nil, count: n)
        var c = 0
        for k in 1..<n {
            while c + 1 < corners.count, abs(corners[c + 1] - k) <= abs(corners[c] - k) { c += 1 }
            // Step k ends at vertex k: it touches the corner at k − 1 or k.
            if min(abs(corners[c] - k), abs(corners[c] - (k - 1))) <= cornerReach { owner[k] = corners[c] }
        }
        let original = points
        for _ in 0..<4 {
            var shortfall = [Double](repeating: 0, count: n)
            for k in 1..<n {
                guard let corner = owner[k] else { continue }
                shortfall[corner] += stated[k] - norm(points[k] - points[k - 1])
            }
            let current = points
            for k in corners {
                guard let turn = turn(current[k - 1], current[k], current[k + 1]), turn > 1e-3 else {
                    continue
                }
                // Outward: away from the inside of the turn, along the bisector of the two steps.
                let incoming = current[k] - current[k - 1]
                let outgoing = current[k + 1] - current[k]
                let inside = outgoing / norm(outgoing) - incoming / norm(incoming)
                let size = norm(inside)
                guard size > 1e-9 else { continue }
                var moved = current[k] - inside / size * (shortfall[k] / (2 * CMath.sin(turn / 2)))
                let total = moved - original[k]
                if norm(total) > maximumMove { moved = original[k] + total / norm(total) * maximumMove }
                points[k] = moved
            }
        }
    }

    /// The angle (radians) the path turns at `b`, or nil where a step has no length.
    static func turn(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double? {
        let u = b - a
        let v = c - b
        let nu = norm(u)
        let nv = norm(v)
        guard nu > 1e-6, nv > 1e-6 else { return nil }
        return CMath.atan2(abs(u.x * v.y - u.y * v.x), dot(u, v))
    }

    static func intersection(
        _ p: SIMD2<Double>, _ u: SIMD2<Double>, _ q: SIMD2<Double>, _ v: SIMD2<Double>
    ) -> SIMD2<Double>? {
        let denominator = u.x * v.y - u.y * v.x
        guard abs(denominator) > 1e-6 else { return nil }
        let w = q - p
        let t = (w.x * v.y - w.y * v.x) / denominator
        return p + u * t
    }

    static func norm(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }

    /// The largest turn (radians) a gap's entry and exit headings are taken to make: beyond it
    /// (a runner who turned back) an arc's length is no measure of the path.
    static let largestArcTurn = Double.pi * 2 / 3

    /// The length of the arc across `chord` that turns evenly through `turn` radians from its
    /// start to its end (the chord itself when they agree): how far a runner went across a gap
    /// in which it stopped, known only by where it went in and came out and the headings then.
    static func arcLength(chord: Double, turn: Double) -> Double {
        let turn = min(abs(turn), largestArcTurn)
        return turn > 1e-3 ? chord * (turn / 2) / CMath.sin(turn / 2) : chord
    }
    static func dot(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { (a * b).sum() }
}
