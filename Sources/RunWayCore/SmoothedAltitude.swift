/// The barometer's altitude for the saved flight (issue 26: the touchdown smoother takes the
/// barometer too). Live, the gain counts the SPEC's double EMA (0.8/0.2 a sample), which lags
/// and flattens a hill the shorter it is: at 1 Hz and 3 m/s, hills 6 m high of 550 m foot to
/// foot came out 3.6 % short, 300 m 7.5 %, 200 m 15 %, 150 m 24 % (the same hills on the raw
/// altitude: 0.2–1.3 %). With the whole log in hand the saved flight counts them on the altitude
/// averaged over `halfWidth` seconds either side of each sample instead: no lag, and a 150 m
/// hill's crest 1.6 % lower at most, while the barometer's noise (2.5 cm a reading) stays far
/// under the 1 m hysteresis and the level test's 0.012 m/s.
///
/// The zero and the spike guard are `AltitudeFilter`'s: the first sample at or after ROTATE is
/// 0 m, and a sample it drops as a spike is no part of the average. Memory: two doubles a sample
/// (24 h at 1 Hz, 1.4 MB, freed with the smoothing).
public struct SmoothedAltitude: Sendable {
    /// Seconds either side of a sample that its average takes in.
    public static let halfWidth = 2.0

    private var times: [Double] = []
    private var values: [Double] = []

    /// From the flight's pressure samples in time order; nil when none was accepted.
    public init?(
        pressures: some Sequence<PressureSample>, rotateAt: Double,
        configuration: AltitudeFilter.Configuration = AltitudeFilter.Configuration()
    ) {
        var builder = Builder(rotateAt: rotateAt, configuration: configuration)
        for sample in pressures { builder.add(sample) }
        guard let built = builder.finish() else { return nil }
        self = built
    }

    /// Gathers the samples as they come (`FlightSmoothing` reads the raw log once for them and
    /// its first smoothing pass together).
    public struct Builder: Sendable {
        private var filter: AltitudeFilter
        private var times: [Double] = []
        private var raw: [Double] = []

        public init(
            rotateAt: Double, configuration: AltitudeFilter.Configuration = AltitudeFilter.Configuration()
        ) {
            filter = AltitudeFilter(configuration: configuration, rotateAt: rotateAt)
        }

        public mutating func add(_ sample: PressureSample) {
            guard case .accepted = filter.add(sample), let value = filter.rawAltitude else { return }
            times.append(sample.time)
            raw.append(value)
        }

        /// The smoothed altitude; nil when no sample was accepted.
        public func finish() -> SmoothedAltitude? {
            raw.isEmpty ? nil : SmoothedAltitude(times: times, raw: raw)
        }
    }

    private init(times: [Double], raw: [Double]) {
        self.times = times
        // A centred moving average by time: a running sum between two moving edges.
        values.reserveCapacity(raw.count)
        var low = 0
        var high = 0
        var sum = 0.0
        for index in raw.indices {
            while high < raw.count, times[high] <= times[index] + Self.halfWidth {
                sum += raw[high]
                high += 1
            }
            while times[low] < times[index] - Self.halfWidth {
                sum -= raw[low]
                low += 1
            }
            values.append(sum / Double(high - low))
        }
    }

    /// Every accepted sample's time and smoothed altitude, in time order.
    public var samples: some Sequence<(time: Double, altitude: Double)> {
        zip(times, values).lazy.map { (time: $0, altitude: $1) }
    }

    /// The smoothed altitude of the sample taken at `time` (nil when none was accepted then).
    public func altitude(at time: Double) -> Double? {
        let low = times.firstIndex(notBelow: time)
        return low < times.count && times[low] == time ? values[low] : nil
    }
}
