/// A paired footpod as the live odometer uses it across a GPS silence (issue 26): the metres it
/// counted since the last fix and since the last counted step, in GPS metres.
///
/// Unlike the saved flight's `FootpodOdometer` it keeps no history (the live flight's memory is
/// bounded, issue 29): the pod's running total, two marks on it, the newest reading's time, the
/// longest silence since each mark, and the calibration (GPS metres per pod metre, learnt
/// fix to fix wherever both measured).
struct LiveFootpod: Sendable {
    /// The pod's metres so far and its newest reading's time.
    private var total = FootpodTotal()
    private var metres: Double { total.metres }
    private var newest: Double? { total.newest }
    private(set) var calibration = FootpodOdometer.Calibration()
    /// The total at the last fix and at the last counted step, and the longest silence since.
    private var atFix: (metres: Double, silence: Double)?
    private var atStep: (metres: Double, silence: Double)?

    mutating func add(_ sample: BodySample) {
        let before = newest
        guard total.add(sample) else { return }
        let silence = before.map { sample.time - $0 } ?? .infinity
        if let mark = atFix { atFix = (mark.metres, max(mark.silence, silence)) }
        if let mark = atStep { atStep = (mark.metres, max(mark.silence, silence)) }
    }

    /// Whether the pod has read within `maximumSilence` of `time`.
    private func isCurrent(at time: Double) -> Bool {
        newest.map { time - $0 <= FootpodOdometer.maximumSilence && time >= $0 - 1 } ?? false
    }

    /// The pod's metres (in GPS metres) since `mark`, when it read all along and is calibrated.
    private func since(_ mark: (metres: Double, silence: Double)?, at time: Double) -> Double? {
        guard let mark, mark.silence <= FootpodOdometer.maximumSilence, isCurrent(at: time),
            let scale = calibration.scale
        else { return nil }
        return (metres - mark.metres) * scale
    }

    /// A fix came at `time`; `integral` is what its speeds added since the last one (nil for a
    /// silence or a missing speed): where the pod read all along, both go into the calibration.
    mutating func fix(at time: Double, integral: Double?) {
        if let integral, let mark = atFix, mark.silence <= FootpodOdometer.maximumSilence, isCurrent(at: time)
        {
            calibration.add(gps: integral, pod: metres - mark.metres)
        }
        atFix = isCurrent(at: time) ? (metres, 0) : nil
    }

    /// The GPS metres the pod counted since the last fix (for the display through a silence).
    func sinceFix(at time: Double) -> Double? { since(atFix, at: time) }

    /// The GPS metres the pod counted since the last counted step, and a new mark there.
    mutating func step(at time: Double) -> Double? {
        defer { atStep = isCurrent(at: time) ? (metres, 0) : nil }
        return since(atStep, at: time)
    }
}
