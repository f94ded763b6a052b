/// A paired footpod's own distance over a flight, as the touchdown smoother bridges an outage
/// with it (issue 26: "bridge an outage with what speed and time say, and a footpod's distance
/// when one is paired").
///
/// Across a minute without fixes the saved flight otherwise holds the speeds either side
/// through the gap; a footpod counted the steps the runner actually took there, stops and
/// changes of pace included. A pod is not calibrated to the runner's stride (uncalibrated pods
/// read a few per cent long or short), so its metres are scaled by what the GPS measured over
/// the same seconds wherever both were present (`scale`); only its shape across the gap is its
/// own.
///
/// The pod's odometer is RSC's Total Distance (a running count that resets with the pod), and
/// where a pod sends only its speed, that speed integrated. A count that goes back is a reset:
/// the track carries on from where it was.
public struct FootpodOdometer: Sendable {
    /// Seconds between readings beyond which the pod is not believed to have covered the time
    /// between them (RSC notifies about once a second; a few lost notifications are fine).
    public static let maximumSilence = 5.0

    /// Reading times, increasing, and the pod's metres up to each.
    public private(set) var times: [Double] = []
    public private(set) var metres: [Double] = []
    private var total = FootpodTotal()

    public init() {}

    public var isEmpty: Bool { times.isEmpty }

    /// Takes a body sample; one without a footpod's speed or distance is ignored.
    public mutating func add(_ sample: BodySample) {
        guard total.add(sample), let time = total.newest else { return }
        times.append(time)
        metres.append(total.metres)
    }

    /// The pod's metres from `start` to `end`, or nil unless readings cover the whole span with
    /// no silence longer than `maximumSilence` (and reach within it of both ends).
    public func distance(from start: Double, to end: Double) -> Double? {
        guard end >= start, var first = index(atOrAfter: start) ?? (times.isEmpty ? nil : times.count - 1)
        else { return nil }
        if times[first] > start {
            guard first > 0 else { return nil }
            first -= 1
        }
        let last: Int
        if let after = index(atOrAfter: end) {
            last = after
        } else {
            guard end - times[times.count - 1] <= Self.maximumSilence else { return nil }
            last = times.count - 1
        }
        guard start - times[first] <= Self.maximumSilence else { return nil }
        for k in first..<last where times[k + 1] - times[k] > Self.maximumSilence { return nil }
        return metres(at: end) - metres(at: start)
    }

    /// The pod's metres at `time`: linear between readings, flat beyond them.
    func metres(at time: Double) -> Double {
        guard let after = index(atOrAfter: time) else { return metres.last ?? 0 }
        guard after > 0 else { return metres[0] }
        let span = times[after] - times[after - 1]
        let f = span > 0 ? (time - times[after - 1]) / span : 1
        return metres[after - 1] + (metres[after] - metres[after - 1]) * f
    }

    /// The first reading at or after `time`.
    private func index(atOrAfter time: Double) -> Int? {
        let low = times.firstIndex(notBelow: time)
        return low < times.count ? low : nil
    }

    /// What GPS measured for each of the pod's metres where both were present: the sums of
    /// `add(gps:from:to:)`, and the scale once they span enough running to trust.
    public struct Calibration: Sendable, Equatable {
        public private(set) var gps = 0.0
        public private(set) var pod = 0.0

        /// Metres of running both must have measured before the scale is used: 200 m is a pod's
        /// ±1 % read against Doppler's ±0.1 m/s over a minute or more.
        public static let minimumMetres = 200.0
        /// A pod reading further off than this is not this runner's pod, or is broken.
        public static let plausible = 0.7...1.3

        public init() {}

        public mutating func add(gps metres: Double, pod podMetres: Double) {
            guard metres.isFinite, podMetres.isFinite, metres > 0, podMetres > 0 else { return }
            gps += metres
            pod += podMetres
        }

        /// GPS metres per pod metre, or nil until both measured `minimumMetres` (or when the
        /// ratio is implausible).
        public var scale: Double? {
            guard gps >= Self.minimumMetres, pod > 0 else { return nil }
            let ratio = gps / pod
            return Self.plausible.contains(ratio) ? ratio : nil
        }
    }
}

/// A footpod's running total in metres, reading by reading: RSC's Total Distance differences
/// (a count that goes back is a reset, and the total carries on from where it was), or where a
/// pod sends only its speed, that speed integrated across gaps up to
/// `FootpodOdometer.maximumSilence`.
struct FootpodTotal: Sendable {
    private(set) var metres = 0.0
    /// The newest reading's time.
    private(set) var newest: Double?
    private var lastCount: Double?
    private var lastSpeed: Double?

    /// Takes a reading; false (nothing changed) for a sample without a pod or out of order.
    mutating func add(_ sample: BodySample) -> Bool {
        guard sample.footpodDistance != nil || sample.footpodSpeed != nil, sample.time.isFinite else {
            return false
        }
        if let newest, sample.time <= newest { return false }
        if let count = sample.footpodDistance {
            if let previous = lastCount, count >= previous { metres += count - previous }
            lastCount = count
        } else if let speed = sample.footpodSpeed, let newest, let before = lastSpeed,
            sample.time - newest <= FootpodOdometer.maximumSilence
        {
            metres += (before + speed) / 2 * (sample.time - newest)
        }
        lastSpeed = sample.footpodSpeed
        newest = sample.time
        return true
    }
}
