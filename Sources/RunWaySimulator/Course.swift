import Foundation
import RunWayCore

/// A closed polyline walked by distance, lap after lap.
struct Course: Sendable {
    let points: [(east: Double, north: Double)]
    let cumulative: [Double]
    let length: Double

    init(_ points: [(east: Double, north: Double)]) {
        var closed = points
        if let first = points.first { closed.append(first) }
        var cumulative = [0.0]
        for i in 1..<closed.count {
            let dx = closed[i].east - closed[i - 1].east
            let dy = closed[i].north - closed[i - 1].north
            cumulative.append(cumulative[i - 1] + (dx * dx + dy * dy).squareRoot())
        }
        self.points = closed
        self.cumulative = cumulative
        length = cumulative.last ?? 0
    }

    /// Position and heading (degrees from north) at distance `s`.
    func locate(_ s: Double) -> (east: Double, north: Double, heading: Double) {
        guard length > 0 else { return (0, 0, 0) }
        var d = s.truncatingRemainder(dividingBy: length)
        if d < 0 { d += length }
        var low = 0
        var high = cumulative.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if cumulative[mid] <= d { low = mid } else { high = mid }
        }
        let a = points[low]
        let b = points[high]
        let span = cumulative[high] - cumulative[low]
        let f = span > 0 ? (d - cumulative[low]) / span : 0
        var heading = Foundation.atan2(b.east - a.east, b.north - a.north) * 180 / .pi
        if heading < 0 { heading += 360 }
        return (a.east + (b.east - a.east) * f, a.north + (b.north - a.north) * f, heading)
    }

    /// A rounded rectangle (a park loop) of the given size, corner radius and smoothness.
    static func parkLoop(width: Double, height: Double, radius: Double) -> [(east: Double, north: Double)] {
        var result: [(east: Double, north: Double)] = []
        let corners = [
            (width - radius, height - radius, 0.0), (radius, height - radius, 90.0),
            (radius, radius, 180.0), (width - radius, radius, 270.0),
        ]
        for (cx, cy, startAngle) in corners {
            for step in 0...6 {
                let angle = (startAngle + Double(step) * 15) * .pi / 180
                result.append((cx + radius * Foundation.cos(angle), cy + radius * Foundation.sin(angle)))
            }
        }
        return result.map { ($0.east - width / 2, $0.north - height / 2) }
    }

    /// City blocks: a closed zig-zag of square blocks with sharp 90° corners, as a runner goes
    /// round a grid of streets — out along a staircase (east one block, north one block, `steps`
    /// times), one block north, and back along a parallel staircase a block away (west, south),
    /// every corner a right angle, left and right in turn. A lap is (4 × `steps` + 2) blocks.
    /// A straight chord across a corner is 71 % of the way round it, so an outage over a corner
    /// hides how far the runner went.
    static func cityBlocks(block: Double, steps: Int) -> [(east: Double, north: Double)] {
        var result: [(east: Double, north: Double)] = [(0, 0)]
        for step in 0..<steps {
            result.append((Double(step + 1) * block, Double(step) * block))
            result.append((Double(step + 1) * block, Double(step + 1) * block))
        }
        // One block north is collinear with the last step's north: the corner is at its end.
        result[result.count - 1].north += block
        for step in 0..<steps {
            let east = Double(steps - step - 1) * block
            result.append((east, Double(steps - step + 1) * block))
            result.append((east, Double(steps - step) * block))
        }
        // The closing block south is collinear with the last step's south: the loop closes at (0, 0).
        result.removeLast()
        let size = Double(steps) * block
        return result.map { ($0.east - size / 2, $0.north - size / 2) }
    }
}
