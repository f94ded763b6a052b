import RunWayCore

/// `runway fly`: flies a recorded sensor trace through the same engine as a live run.
public enum FlyCommand {
    public struct Result: Sendable {
        public var flight: Flight
        public var callouts: [TimedCallout]
        public var diagnostics: [Diagnostic]
        public var fixCount: Int
        public var pressureCount: Int
        /// What the engine was given after START, for the logbook's raw sensor log.
        public var inputs: [EngineInput]
    }

    /// Flies the traces. Start is the first usable fix (mode ≥ 2), end the last.
    public static func fly(
        gps: GPSTrace, gpsName: String, pressure: PressureTrace?, mission: Mission?,
        configuration: EngineConfiguration = EngineConfiguration()
    ) throws(CLIError) -> Result {
        let diagnostics = gps.diagnostics + (pressure?.diagnostics ?? [])
        let fixes = gps.fixes
        guard let first = fixes.first, let last = fixes.last else {
            let skipped = gps.diagnostics.isEmpty ? "" : " (\(gps.diagnostics.count) bad lines)"
            throw CLIError(
                "\(gpsName) has no usable fix: no TPV with mode ≥ 2, a time, lat and lon\(skipped)")
        }
        var inputs: [EngineInput] = gps.reports.filter { $0.time >= first.time }.map { .fix($0) }
        if let samples = pressure?.samples {
            inputs += samples.filter { $0.time <= last.time }.map { .pressure($0) }
        }
        // A stable merge by time: fixes before pressure samples of the same instant.
        inputs = inputs.enumerated().sorted {
            $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset
        }.map(\.element)

        var computer = FlightComputer(configuration: configuration)
        var callouts: [TimedCallout] = []
        func take(_ outputs: [EngineOutput]) {
            for case .callout(let callout) in outputs { callouts.append(callout) }
        }
        take(computer.handle(.start(at: first.time, mission: mission, countdown: false)))
        for input in inputs { take(computer.handle(input)) }
        let (result, outputs) = computer.end(sentAt: nil)
        take(outputs)
        guard let flight = result.flight else {
            throw CLIError("\(gpsName): the engine did not land a flight (\(result))")
        }
        return Result(
            flight: flight, callouts: callouts, diagnostics: diagnostics, fixCount: fixes.count,
            pressureCount: pressure?.samples.count ?? 0, inputs: inputs)
    }
}
