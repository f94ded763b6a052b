import RunWayCore

/// A progress line on standard error for work that may take over a second (reprocess, salvage,
/// export, a long fly): drawn only once a second has passed, redrawn at most 5 times a second,
/// cleared at the end — and only on a terminal without NO_COLOR, so logs and pipes never see
/// it.
final class ProgressLine {
    static let delay = 1.0
    static let interval = 0.2
    private let console: Console
    private let label: String
    private let clock: () -> Double
    private let started: Double
    private var lastDrawn = -Double.infinity
    private(set) var drawn = false

    init(_ label: String, console: Console, clock: @escaping () -> Double = { MonotonicInstant.now.seconds })
    {
        self.console = console
        self.label = label
        self.clock = clock
        started = clock()
    }

    /// `fraction` done, 0…1.
    func update(_ fraction: Double) {
        guard console.errStyled else { return }
        let now = clock()
        guard now - started >= Self.delay, now - lastDrawn >= Self.interval else { return }
        lastDrawn = now
        drawn = true
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        console.progress("\r\u{1B}[K\(label) \(percent) % (\(UTCTime.duration(now - started)))")
    }

    /// Clears the line, so what follows starts on a clean one.
    func finish() {
        if drawn { console.progress("\r\u{1B}[K") }
        drawn = false
    }
}
