import RunWayCore
import Testing

extension PauseDetector {
    /// A detector that has seen 100 s of running at `speed` (a fix a second, Doppler on), then
    /// no fix: paused by the signal's loss from 100 s, as the gap suites begin.
    static func runningThenSignalLost(speed: Double) -> PauseDetector {
        var detector = PauseDetector(startedAt: 0)
        for t in 1...100 {
            _ = detector.observeFix(
                time: Double(t), speed: speed, moved: true, step: speed, speedIsDoppler: true)
        }
        #expect(detector.advance(to: 108) == [.paused(.signalLost, effective: 100)])
        return detector
    }
}
