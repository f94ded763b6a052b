/// The live daemon ticks the engine once a second of GPS time, so time passes for the engine
/// between reports: SIGNAL LOST is declared 8 s after the last fix, not when the next one comes.
/// A replay (a trace flown by `runway fly`, a flight recovered or reprocessed from its raw log)
/// has no clock, so it inserts the same ticks between recorded inputs; a replay then says what
/// the live run said, when it said it. Ticks are not recorded in the raw log: every replay makes
/// them again.
public struct ReplayTicker: Sendable {
    public static let interval = 1.0
    /// Once the signal-loss pause has been declared, later ticks of a gap change nothing in the
    /// engine (no input arrives, no timer is due), so a gap gets at most this many: a corrupt
    /// time cannot make a replay tick for ever.
    public static let maxTicksPerGap = 600
    private var last: Double?

    public init() {}

    /// The ticks due strictly after the previous input and before `time`; then `time` becomes
    /// the previous input. Times that do not advance give none.
    public mutating func ticks(before time: Double) -> [Double] {
        defer { if last.map({ time > $0 }) ?? true { last = time } }
        guard let last, time.isFinite, time - last > Self.interval else { return [] }
        var ticks: [Double] = []
        var t = last + Self.interval
        while t < time, ticks.count < Self.maxTicksPerGap {
            ticks.append(t)
            t += Self.interval
        }
        return ticks
    }

    /// The ticks due before `input` is handed to `computer`. An input the engine will hold as
    /// dated too far ahead (`EngineConfiguration.maximumFixLead`) is not ticked toward, nor
    /// taken as the previous input: the ticks follow the flight's own time line.
    public mutating func ticks(before input: EngineInput, in computer: FlightComputer) -> [Double] {
        computer.isFarAhead(input) ? [] : ticks(before: input.time)
    }
}
