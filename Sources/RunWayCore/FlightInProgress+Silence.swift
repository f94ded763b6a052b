/// A flight in progress measures a step across a GPS silence from where the fixes around each
/// end put it (`RecentFixes`), not from one fix at each end: a multipath fix there is the whole
/// chord's error, and a tunnel's mouth is where one comes.
extension FlightInProgress {
    /// The step from `anchor` to `fix` when it crosses a silence (no accepted fix for longer
    /// than the odometer integrates across, and no speeds went on meanwhile: fixes rejected as
    /// jumps still carry Doppler): where it began, and its chord. The anchor's own fix is the
    /// start unless it lies more than `RecentFixes.outlier` from where the last fixes before the
    /// silence put it ("stop in an outage": an anchor 24 m off made the bridge 13 m short, the
    /// live distance 1.00 % short at the next kilometre and the stop 4 s long). Nil for a step
    /// that crosses no silence.
    func silenceCrossing(to fix: Fix, from anchor: Fix?) -> (entry: Coordinate, chord: Double)? {
        guard let anchor, odometer.spansSilence, let before = recentFixes.latestTime,
            fix.time - before > odometer.configuration.maxIntegrationGap
        else { return nil }
        var entry = anchor.coordinate
        if let voted = recentFixes.position(at: anchor.time),
            Geodesy.distance(voted, anchor.coordinate) > RecentFixes.outlier
        {
            entry = voted
        }
        return (entry, Geodesy.distance(entry, fix.coordinate))
    }

    /// Once the fixes since the last silence span `RecentFixes.exitVote`, where they put its
    /// exit: when that is more than `RecentFixes.outlier` from the exit's own fix, the step
    /// across the silence is measured again from there (`Odometer.remeasureCrossing`).
    mutating func remeasureSilenceExit() {
        guard let (entry, exit) = silenceExit, let latest = recentFixes.latestTime else { return }
        guard latest - exit.time >= RecentFixes.exitVote else { return }
        silenceExit = nil
        guard let voted = recentFixes.position(at: exit.time),
            Geodesy.distance(voted, exit.coordinate) > RecentFixes.outlier
        else { return }
        odometer.remeasureCrossing(chord: Geodesy.distance(entry, voted))
    }
}
