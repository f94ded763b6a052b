import RunWayCore

/// The timer every format states: running from ROTATE, stopped through each pause, stopped at
/// TOUCHDOWN, in whole GPS seconds (FIT's timestamps are whole seconds). Every timer total a file
/// states — FIT's session and laps, TCX's laps — is summed from these intervals, so a reader that
/// sums the file's own start..stop events finds the same figure to the second (issue 28, row 2:
/// the moving time against events floored apart disagreed by −4.5 s in 6 of 13 files).
extension ExportActivity {
    /// A whole GPS second: the nearest to `elapsed` seconds after ROTATE.
    public func wholeSecond(_ elapsed: Double) -> Double { (startTime + elapsed).rounded() }

    /// Whether the timer runs at GPS second `time` (a stop's own second is stopped).
    public func timerRuns(at time: Double) -> Bool {
        timerIntervals.contains { $0.lowerBound <= time && time < $0.upperBound }
    }

    /// The timer's running stretches in seconds from ROTATE: from ROTATE and each resume to each
    /// pause and TOUCHDOWN, less the standing seconds the flight did not count, taken from the
    /// end of the last stretches (its moving time is backdated to the last movement: 4.5 s on
    /// flat 5 km, 5.25 s on the stops run — issue 28 row 2's −4.5 s).
    static func movingStretches(elapsed: Double, movingTime: Double, pauses: [PauseInterval]) -> [(
        Double, Double
    )] {
        let starts = [0] + pauses.map { min(max($0.end, 0), elapsed) }
        let stops = pauses.map { min(max($0.start, 0), elapsed) } + [elapsed]
        var stretches = starts.indices.compactMap { stops[$0] > starts[$0] ? (starts[$0], stops[$0]) : nil }
        var standing = stretches.reduce(0) { $0 + $1.1 - $1.0 } - movingTime
        var k = stretches.count - 1
        while standing > 0, k >= 0 {
            let cut = min(standing, stretches[k].1 - stretches[k].0)
            stretches[k].1 -= cut
            standing -= cut
            k -= 1
        }
        return stretches.filter { $0.1 > $0.0 }
    }

    /// Each running stretch of the timer in whole GPS seconds. Each stop is placed so the
    /// running total is the flight's moving time so far, rounded: the file's timer is the
    /// logbook's moving time within half a second, however many pauses round the same way.
    static func runningStretches(
        startTime: Double, elapsed: Double, movingTime: Double, pauses: [PauseInterval]
    ) -> [ClosedRange<Double>] {
        let stretches = movingStretches(elapsed: elapsed, movingTime: movingTime, pauses: pauses)
        var intervals: [ClosedRange<Double>] = []
        var exact = 0.0
        var counted = 0.0
        for (k, stretch) in stretches.enumerated() {
            exact += stretch.1 - stretch.0
            let from = max((startTime + stretch.0).rounded(), intervals.last?.upperBound ?? -.infinity)
            var to = from + max(0, exact.rounded() - counted)
            if k + 1 < stretches.count { to = min(to, max(from, (startTime + stretches[k + 1].0).rounded())) }
            counted += to - from
            if to > from { intervals.append(from...to) }
        }
        return intervals
    }

    /// Σ of `timerIntervals`: the session's `total_timer_time`.
    public var timerTime: Double { timerIntervals.reduce(0) { $0 + $1.upperBound - $1.lowerBound } }

    /// A lap's share of the timer: the intervals clipped to the lap's whole seconds. The laps
    /// are contiguous, so their timers add up to `timerTime`.
    public func timerTime(lap index: Int) -> Double {
        let from = index == 0 ? wholeSecond(0) : wholeSecond(laps[index - 1].endElapsed)
        let to = index == laps.count - 1 ? wholeSecond(elapsed) : wholeSecond(laps[index].endElapsed)
        return timerIntervals.reduce(0) { total, interval in
            total + max(0, min(interval.upperBound, to) - max(interval.lowerBound, from))
        }
    }

    /// A lap's whole calories: the session's shared by distance, rounded on the running total so
    /// the laps add up to the session's whole figure (TCX has only laps: row 11 found −3 … +4 kcal
    /// between the laps' rounded shares and the session). Nil without a body mass.
    public func lapCalories(_ index: Int) -> Int? {
        guard let calories, distance > 0 else { return nil }
        func through(_ i: Int) -> Int {
            guard i >= 0 else { return 0 }
            if i == laps.count - 1 { return Int(calories.rounded()) }
            let covered = laps[0...i].reduce(0) { $0 + $1.distance }
            return Int((calories * min(covered / distance, 1)).rounded())
        }
        return max(0, through(index) - through(index - 1))
    }
}
