/// The touchdown smoother's check of Doppler speed against the positions (issue 26).
///
/// The smoother takes a Doppler speed under 0.4 m/s as "standing", whatever the positions
/// wander: that is what makes a stop amid urban wander a stop. A receiver can also lie the other
/// way: gpsd's `bundg_zeus_9` capture is a boat moving 2.9 m/s by its positions for 147 s whose
/// reported speed reads 0–0.4 m/s for 38 s in the middle. Taken as standing, the positions of
/// those 38 s were gated away and the track broke: 298 m instead of ~410 m.
///
/// The signature of that lie, and not of a stop: a stretch of slow readings (under `slowSpeed`)
/// lasting at least `minimumStretch`, with Doppler clearly moving on both sides (the medians of
/// the `context` seconds before and after at least `movingSpeed`), across which the positions
/// kept going at the speed around it (the chord from the last fix before to the first after,
/// less twice its noise, at least `keptGoing` of the slower side's speed). A runner who stops
/// does not cover the stop's duration at running speed; a cold start's drift comes before any
/// moving Doppler. Such a stretch's speeds are dropped, so the smoother follows the positions.
///
/// Streaming: fixes come in and go out in order, held back only while a slow stretch is open
/// (at most `longestLie` seconds, after which it is a stop and goes out as it was) and for the
/// `context` seconds after it.
public struct DopplerCheck: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// A reading under this is "slow": the smoother's standing (0.4 m/s) with room above it.
        public var slowSpeed = 1.0
        /// Both sides of a lying stretch read at least this: clearly moving (a walk is ~1.4 m/s).
        public var movingSpeed = 1.5
        /// Shorter slow stretches are left alone: a slip of a few readings costs the smoother
        /// nothing, and over a few seconds the chord's noise is the size of the motion.
        public var minimumStretch = 8.0
        /// Seconds of readings on each side whose median is the speed around the stretch.
        public var context = 10.0
        /// The chord's speed as a share of the slower side's: a boat that kept going covers ~all
        /// of it (bundg: 0.9); a runner who stopped for 8 s covers under half.
        public var keptGoing = 0.7
        /// A slow stretch longer than this is a stop, not a lie (no capture here lies longer).
        public var longestLie = 120.0
        /// The fixes either side must be this close to the stretch (s): across a silence
        /// between them (an outage into a stand) the runner's whereabouts are unknown, and a
        /// chord from before the silence measures the running in it, not the stretch.
        public var edgeGap = 3.0
        /// σ of one fix's position per metre of `eph` (the smoother's wander scale) and its floor.
        public var positionScale = 0.12
        public var minimumPositionSigma = 1.0

        public init() {}
    }

    public let configuration: Configuration
    /// Stretches whose speeds were dropped.
    public private(set) var liesFound = 0
    /// The fixes of the last `context` seconds before an open stretch: already passed on, kept
    /// for the speed before it and its first position.
    var before: [Fix] = []
    var stretch: [Fix] = []
    var after: [Fix] = []

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Takes a fix in time order; returns the fixes that can go on to the smoother now. A report
    /// without a position (gpsd's mode 1 through an outage) is no evidence either way and is
    /// passed on, or held in order while a stretch is open: its coordinate is no place to
    /// measure a chord from (taken as the last fix before a stand, thousands of km away, it made a
    /// stand after a 16 s outage a lie at 5 Hz, the stand's speeds were dropped, and the saved
    /// distance ran 12 m long there).
    public mutating func add(_ fix: Fix) -> [Fix] {
        guard fix.hasPosition else { return hold(fix) }
        let slow = fix.speed.map { $0 < configuration.slowSpeed } ?? false
        if stretch.isEmpty {
            if slow, !before.isEmpty {
                stretch = [fix]
                return []
            }
            remember(fix)
            return [fix]
        }
        if after.isEmpty {
            if slow {
                stretch.append(fix)
                guard let first = stretch.first, fix.time - first.time > configuration.longestLie else {
                    return []
                }
                return release(dropping: false)
            }
            after = [fix]
            return []
        }
        if slow || fix.time - (after.first?.time ?? fix.time) >= configuration.context {
            let out = release(dropping: isLie())
            return out + add(fix)
        }
        after.append(fix)
        return []
    }

    /// The fixes still held, once the last has been given.
    public mutating func finish() -> [Fix] {
        stretch.isEmpty ? [] : release(dropping: !after.isEmpty && isLie())
    }

    /// A report without a position: passed on, or held in order while a stretch is open, the
    /// stretch let go when its time is up (`longestLie`; the `context` after it), so an outage
    /// of hours after a slow stretch holds at most two minutes of reports.
    private mutating func hold(_ fix: Fix) -> [Fix] {
        guard let first = stretch.first else { return [fix] }
        if let start = after.first?.time {
            if fix.time - start >= configuration.context { return release(dropping: isLie()) + [fix] }
            after.append(fix)
        } else {
            if fix.time - first.time > configuration.longestLie { return release(dropping: false) + [fix] }
            stretch.append(fix)
        }
        return []
    }

    private mutating func remember(_ fix: Fix) {
        guard fix.hasPosition else { return }
        before.append(fix)
        while let first = before.first, fix.time - first.time > configuration.context { before.removeFirst() }
    }

    /// The held fixes, the stretch's speeds dropped if it lied; the fixes after it become the
    /// context before the next stretch.
    private mutating func release(dropping: Bool) -> [Fix] {
        var out = stretch
        if dropping {
            liesFound += 1
            for index in out.indices {
                out[index].speed = nil
                out[index].track = nil
            }
        }
        out += after
        before = []
        for fix in after { remember(fix) }
        if after.isEmpty, let last = stretch.last(where: \.hasPosition) { remember(last) }
        stretch = []
        after = []
        return out
    }

    private func isLie() -> Bool {
        // A stretch and its `after` each begin with a fix that has a position; a report without
        // one may end the stretch.
        guard let last = before.last, let next = after.first,
            let first = stretch.first, let end = stretch.last(where: \.hasPosition),
            first.time - last.time <= configuration.edgeGap, next.time - end.time <= configuration.edgeGap,
            next.time - last.time >= configuration.minimumStretch,
            let speedBefore = before.compactMap(\.speed).median,
            let speedAfter = after.compactMap(\.speed).median,
            min(speedBefore, speedAfter) >= configuration.movingSpeed
        else { return false }
        let seconds = next.time - last.time
        let sigma = [last, next].map {
            max(
                ($0.horizontalAccuracy ?? 20) * configuration.positionScale,
                configuration.minimumPositionSigma)
        }
        let chordNoise = 2 * (sigma[0] * sigma[0] + sigma[1] * sigma[1]).squareRoot()
        let chord = Geodesy.distance(last.coordinate, next.coordinate) - chordNoise
        return chord / seconds >= configuration.keptGoing * min(speedBefore, speedAfter)
    }
}
