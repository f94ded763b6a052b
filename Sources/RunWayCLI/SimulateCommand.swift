import RunWayCore
import RunWaySimulator

/// `runway simulate`: writes what the simulated board's sensors report for a built-in scenario,
/// so it can be replayed through a real gpsd (`gpsfake`) or flown with `runway fly`.
public enum SimulateCommand {
    public enum Format: String, Sendable {
        /// NMEA 0183 sentences for gpsfake.
        case nmea
        /// `time,pressure_pa` CSV for `runway fly --pressure`.
        case pressure
    }

    /// - Parameter leadIn: seconds of "no fix" epochs written before the scenario's first
    ///   (a cold start). gpsd needs about a second of wall time to recognise a new device and
    ///   drops what arrives before; gpsfake replays faster than real time, so the lead-in keeps
    ///   the run itself whole.
    public static func lines(scenario name: String, format: Format, leadIn: Int = 0) throws(CLIError)
        -> [String]
    {
        guard let scenario = Scenario.named.first(where: { $0.name == name })?.scenario else {
            let names = Scenario.named.map(\.name).joined(separator: ", ")
            throw .usage("unknown scenario \"\(name)\" (\(names))")
        }
        var runner = ScenarioRunner(scenario)
        runner.recordsDistance = false
        var lines: [String] = format == .pressure ? ["time,pressure_pa"] : []
        while let event = runner.next() {
            switch (event, format) {
            case (.input(.fix(let fix)), .nmea):
                if lines.isEmpty {
                    for k in stride(from: leadIn, to: 0, by: -1) {
                        let noFix = Fix(time: fix.time - Double(k), coordinate: fix.coordinate, mode: 1)
                        lines += NMEAWriter.sentences(for: noFix)
                    }
                }
                lines += NMEAWriter.sentences(for: fix)
            case (.input(.pressure(let sample)), .pressure):
                lines.append("\(UTCTime.format(sample.time)),\(NMEAWriter.fixed(sample.pascals, 2))")
            default:
                break
            }
        }
        return lines
    }
}
