/// Time in each heart-rate zone, counted in moving time.
///
/// A reading holds from its time until the next reading or until it is `maxAge` old, whichever
/// comes first (the PFD's rule: older than `EngineConfiguration.bodySampleMaxAge` is missing). A
/// span without a reading counts in no zone, nor does a heart rate below zone 1. The spans are
/// kept (consecutive spans of one zone merged into one) and intersected with the flight's moving
/// stretches at touchdown, so pauses — whose edges the pause detector backdates — never count.
public struct HeartRateZoneTime: Sendable {
    public struct Span: Sendable, Equatable {
        public var start: Double
        public var end: Double
        /// 1…5.
        public var zone: Int
    }

    public let zones: HeartRateZones
    /// Seconds a reading holds without a newer one.
    public let maxAge: Double
    public private(set) var spans: [Span] = []
    /// The newest reading: when, and its zone (nil below zone 1).
    private var held: (time: Double, zone: Int?)?
    /// Whether any heart rate was read: without one the flight's time in zone is missing, not 0.
    public private(set) var hasReadings = false

    public init(zones: HeartRateZones, maxAge: Double) {
        self.zones = zones
        self.maxAge = maxAge
    }

    /// A heart-rate reading at `time` (readings arrive in time order; an older one is ignored).
    public mutating func add(heartRate: Double, at time: Double) {
        if let held, time < held.time { return }
        close(at: time)
        hasReadings = true
        held = (time, zones.zone(of: heartRate))
    }

    /// Ends the held reading's span at `time` (or where it expires, if sooner).
    private mutating func close(at time: Double) {
        guard let held, let zone = held.zone else { return }
        let end = min(time, held.time + maxAge)
        guard end > held.time else { return }
        if let last = spans.last, last.zone == zone, last.end == held.time {
            spans[spans.count - 1].end = end
        } else {
            spans.append(Span(start: held.time, end: end, zone: zone))
        }
    }

    /// Moving seconds in zones 1…5 up to `time`, over the given moving stretches (in order); nil
    /// without a reading.
    public func seconds(through time: Double, moving segments: [ClosedRange<Double>]) -> [Double]? {
        guard hasReadings else { return nil }
        var copy = self
        copy.close(at: time)
        var result = [Double](repeating: 0, count: zones.lowerEdges.count)
        var s = 0
        for span in copy.spans {
            while s < segments.count, segments[s].upperBound <= span.start { s += 1 }
            var k = s
            while k < segments.count, segments[k].lowerBound < span.end {
                let overlap = min(span.end, segments[k].upperBound) - max(span.start, segments[k].lowerBound)
                if overlap > 0 { result[span.zone - 1] += overlap }
                k += 1
            }
        }
        return result
    }
}
