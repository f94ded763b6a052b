/// Which `eph` is too poor to use, judged against what the receiver has been achieving
/// (SPEC "Distance, speed, pace, pause"; issue 26).
///
/// One absolute 50 m limit keeps gpsd's healthy 15–30 m and drops the stale, huge `eph` that
/// follows a no-fix spell. But under trees a receiver reads 30–60 m while its real error is ~6 m
/// (issue 26's tester): the absolute limit rejected a third of the fixes, and the spells between
/// accepted fixes became signal-loss pauses and chords. `eph` is the receiver's own scale, so
/// the limit follows it: `floor`, or `ratio` × the typical `eph` of the fixes accepted lately,
/// whichever is larger. Under trees the typical accepted `eph` settles near 45 m, so the limit
/// is ~70 m and the tree cover's 60 m passes; in the open (typical 15–30 m) the limit stays at
/// the floor, and a stale fix claiming several times the usual is still rejected.
public struct AccuracyGate: Sendable, Equatable {
    /// The limit before any history, and never lower (the seed's 50 m).
    public var floor: Double = 50
    /// A fix this many times worse than the typical accepted one is rejected.
    public var ratio: Double = 1.5
    /// …and never one worse than this, whatever the receiver has been reading: under trees it
    /// reads 30–60 m; a receiver reading 140–400 m indoors (gpsd's `haicom-305N` capture) is
    /// not giving positions worth a runner's distance, and learning its readings let its
    /// wander in as 120 m of walking.
    public var ceiling: Double = 80
    /// Weight of each accepted fix in the typical `eph` (about the last 20 fixes).
    public var weight: Double = 0.05
    /// The running typical `eph` of the fixes seen.
    public private(set) var typical: Double?

    public init() {}

    /// The worst `eph` accepted now.
    public var limit: Double { min(ceiling, max(floor, ratio * (typical ?? 0))) }

    public func accepts(_ accuracy: Double) -> Bool { accuracy <= limit }

    /// Records a fix's `eph` (`MovementFilter` caps a rejected one).
    public mutating func record(_ accuracy: Double) {
        guard accuracy.isFinite, accuracy > 0 else { return }
        typical = typical.map { $0 + weight * (accuracy - $0) } ?? accuracy
    }
}
