import RunWayCore
import RunWayExport
import RunWayStore
import RunWaySystem
import RunWayVoice

/// `runway fly`: flies a recorded sensor trace through the same engine as a live run, streaming
/// both files (merged by time), with the ticks a live run would have had (`ReplayTicker`).
public enum FlyCommand {
    public struct Result: Sendable {
        public var flight: Flight
        public var callouts: [TimedCallout]
        public var fixCount: Int
        /// Pressure samples flown (within the run).
        public var pressureCount: Int
        /// Pressure samples before the first fix or after the last: not flown.
        public var pressureBefore = 0
        public var pressureAfter = 0
        /// Body samples (heart rate, cadence) flown within the run; those before the first fix
        /// or after the last are not flown.
        public var bodyCount = 0
        public var bodyOutside = 0
        /// What the engine was given after START, for the logbook's raw sensor log (ticks are
        /// not included: a replay makes them again). Empty unless asked for.
        public var inputs: [EngineInput]
    }

    /// `runway fly`: reads the GPS trace (its bad lines said first, so a trace that turns out
    /// unusable says why), flies it with the pressure and body files streamed alongside, and
    /// prints the result; with `saveTo`, stores it in that logbook.
    public static func run(
        gps gpsPath: String, pressure pressurePath: String?, body bodyPath: String? = nil,
        buttons buttonsPath: String? = nil, mission: Mission?, workout: Workout? = nil,
        configuration: EngineConfiguration = EngineConfiguration(), json: Bool,
        saveTo logbookPath: String?, zone: LocalZone = .utc, audio: String? = nil,
        language: VoiceLanguage = .english, homeAltitude: Double? = nil, console: Console
    ) throws(CLIError) -> Int32 {
        let gps = try GPSTraceFile(LineReader(path: gpsPath))
        report(gps.diagnostics, console: console)
        let pressure = try pressurePath.map { path throws(CLIError) in
            try PressureFile(LineReader(path: path))
        }
        let body = try bodyPath.map { path throws(CLIError) in try BodyFile(LineReader(path: path)) }
        let buttonFile = try buttonsPath.map { path throws(CLIError) in try ButtonFile(LineReader(path: path))
        }
        let presses = try buttonFile?.all() ?? []
        if let buttonFile { report(buttonFile.diagnostics, console: console) }
        let line = ProgressLine("flying \(gps.name)", console: console)
        let listener = audio.map { _ in FlightAudioWriter() }
        let result = try fly(
            gps: gps, pressure: pressure, body: body, presses: presses, mission: mission, workout: workout,
            configuration: configuration, keepInputs: logbookPath != nil || json,
            observers: listener.map { [$0] } ?? [], progress: line.update)
        line.finish()
        var warnings = gps.diagnostics
        if let body {
            report(body.diagnostics, console: console)
            for diagnostic in body.diagnostics.kept { warnings.append(diagnostic) }
            if result.bodyOutside > 0 {
                let note = Diagnostic(
                    file: body.name, line: nil,
                    message:
                        "\(result.bodyOutside) of its \(result.bodyOutside + result.bodyCount) samples fall outside the run — not used"
                )
                console.err("runway: \(note)")
                warnings.append(note)
            }
        }
        if let pressure {
            report(pressure.diagnostics, console: console)
            for diagnostic in pressure.diagnostics.kept { warnings.append(diagnostic) }
            if let note = pressureNote(result, file: pressure) {
                console.err("runway: \(note)")
                warnings.append(note)
            }
        }
        var savedID: Int64?
        if let logbookPath {
            do {
                let logbook = try LogbookCommands.open(logbookPath, access: .readWrite, console: console)
                switch try logbook.save(result.flight, inputs: result.inputs, source: "fly \(gpsPath)") {
                case .saved(let id):
                    savedID = id
                    console.err("runway: saved as flight \(id) in \(logbookPath)")
                case .tooShort: console.err("runway: not saved: a flight under 100 m is not recorded")
                case .alreadySaved(let id):
                    savedID = id
                    console.err("runway: not saved: \(logbookPath) already holds this run as flight \(id)")
                }
            } catch {
                throw CLIError.logbook(logbookPath, error)
            }
        }
        if json {
            // `flight_id`: the logbook's number for this run with --save (new or already there),
            // else null. (`status` is the engine's verdict, recorded or too short; the logbook's
            // own state of a stored flight is `logbook_status` in `runway logbook --flight`.)
            // `altitude_anchor`: what the exported files' altitude would be measured from.
            console.out(
                JSONValue.object(
                    FlightReport.fields(
                        result.flight, diagnostics: warnings.kept, warningsCount: warnings.total)
                        + [
                            ("flight_id", savedID.map { .number(Double($0)) } ?? .null),
                            (
                                "altitude_anchor",
                                ExportActivity(
                                    flight: result.flight, inputs: result.inputs, homeAltitude: homeAltitude
                                )
                                .anchorJSON
                            ),
                        ]
                ).rendered())
        } else {
            let bodyWords = body.map { _ in ", \(result.bodyCount) body samples" } ?? ""
            console.out(
                "Flew \(result.fixCount) fixes\(bodyWords) and \(result.pressureCount) pressure samples from \(gps.name)."
            )
            for callout in result.callouts {
                console.out(
                    "  \(FlightReport.padRight(UTCTime.duration(callout.time - result.flight.startTime), 7)) >> \(callout.callout.text)"
                )
            }
            console.out(FlightReport.summary(result.flight, zone: zone, units: configuration.units))
        }
        if let audio, let listener {
            for line in try listener.write(to: audio, language: language, units: configuration.units) {
                console.err("runway: \(line)")
            }
        }
        return 0
    }

    /// What a pressure file that does not cover the run means for the flight, or nil when it
    /// covers it.
    static func pressureNote(_ result: Result, file: PressureFile) -> Diagnostic? {
        let read = result.pressureCount + result.pressureBefore + result.pressureAfter
        let span = "\(UTCTime.format(result.flight.startTime)) to \(UTCTime.format(result.flight.endTime))"
        if read == 0 {
            return Diagnostic(
                file: file.name, line: nil, message: "has no pressure samples: the flight has no altitude")
        }
        if result.pressureCount == 0 {
            return Diagnostic(
                file: file.name, line: nil,
                message:
                    "none of its \(read) pressure samples falls within the run (\(span)): the flight has no altitude"
            )
        }
        let outside = result.pressureBefore + result.pressureAfter
        guard outside > 0 else { return nil }
        return Diagnostic(
            file: file.name, line: nil,
            message:
                "\(outside) of its \(read) pressure samples fall outside the run (\(span)): \(result.pressureBefore) before, \(result.pressureAfter) after — not used"
        )
    }

    /// Flies the trace files. Start is the first usable fix (mode ≥ 2), end the last.
    public static func fly(
        gps: GPSTraceFile, pressure: PressureFile?, body: BodyFile? = nil, presses: [EngineInput] = [],
        mission: Mission?, workout: Workout? = nil,
        configuration: EngineConfiguration = EngineConfiguration(), keepInputs: Bool = false,
        observers: sending [any FlightObserver] = [], progress: ((Double) -> Void)? = nil
    ) throws(CLIError) -> Result {
        var reports = gps.reports()
        guard let first = gps.firstFixTime, let last = gps.lastFixTime else {
            let skipped = gps.diagnostics.total == 0 ? "" : " (\(gps.diagnostics.total) bad lines)"
            throw CLIError(
                "\(gps.name) has no usable fix: no TPV with mode ≥ 2, a time, lat and lon\(skipped)")
        }
        var result = try fly(
            start: first, end: last, nextReport: { reports.next() },
            nextPressure: { () throws(CLIError) in
                try pressure?.next()
            }, nextBody: { () throws(CLIError) in try body?.next() }, presses: presses, mission: mission,
            workout: workout, configuration: configuration, keepInputs: keepInputs, name: gps.name,
            observers: observers, progress: progress)
        result.fixCount = gps.fixCount
        return result
    }

    /// Flies traces held in memory (tests).
    public static func fly(
        gps: GPSTrace, gpsName: String, pressure: PressureTrace?, mission: Mission?,
        configuration: EngineConfiguration = EngineConfiguration()
    ) throws(CLIError) -> Result {
        let fixes = gps.fixes
        guard let first = fixes.first, let last = fixes.last else {
            throw CLIError("\(gpsName) has no usable fix: no TPV with mode ≥ 2, a time, lat and lon")
        }
        var reports = gps.reports.makeIterator()
        var samples = (pressure?.samples ?? []).makeIterator()
        var result = try fly(
            start: first.time, end: last.time, nextReport: { reports.next() },
            nextPressure: { () throws(CLIError) in samples.next() }, mission: mission,
            configuration: configuration, keepInputs: true, name: gpsName)
        result.fixCount = fixes.count
        return result
    }

    /// The merge: reports, pressure and body samples, each in time order, flown in one time order
    /// (a fix before a sample of the same instant, pressure before body), from the first fix to
    /// the last.
    static func fly(
        start: Double, end: Double, nextReport: () -> Fix?,
        nextPressure: () throws(CLIError) -> PressureSample?,
        nextBody: () throws(CLIError) -> BodySample? = { nil }, presses: [EngineInput] = [],
        mission: Mission?, workout: Workout? = nil,
        configuration: EngineConfiguration, keepInputs: Bool, name: String,
        observers: sending [any FlightObserver] = [], progress: ((Double) -> Void)? = nil
    ) throws(CLIError) -> Result {
        let engine = FlightEngine(
            computer: FlightComputer(configuration: configuration), on: CallerThreadExecutor(),
            observers: observers)
        // `assumeIsolated` runs its body at once on this thread, which is the engine's
        // (`CallerThreadExecutor` checks it), so the readers and `progress` are called only
        // here, synchronously.
        nonisolated(unsafe) let (nextReport, nextPressure, nextBody, progress) = (
            nextReport, nextPressure, nextBody, progress
        )
        let flown = engine.assumeIsolated { engine -> Swift.Result<Result, CLIError> in
            do throws(CLIError) {
                return .success(try flyAll(on: engine))
            } catch {
                return .failure(error)
            }
        }
        return try flown.get()

        func flyAll(on engine: isolated FlightEngine) throws(CLIError) -> Result {
            var callouts: [TimedCallout] = []
            // A flight landed by a press of END (or a forgotten stop) before the trace's end.
            var landedEarly: Flight?
            var pending = presses[...]
            // The flown inputs: the logbook's raw log with --save, and always the touchdown
            // smoother's (the flight printed is the one the logbook would save).
            var inputs: [EngineInput] = []
            var ticker = ReplayTicker()
            func take(_ outputs: [EngineOutput]) {
                for case .callout(let callout) in outputs { callouts.append(callout) }
                for case .ended(.landed(let flight)) in outputs { landedEarly = flight }
            }
            func fly(_ input: EngineInput) {
                for tick in ticker.ticks(before: input, in: engine.computer) {
                    take(engine.handle(.tick(tick)))
                }
                take(engine.handle(input))
                inputs.append(input)
            }
            take(engine.handle(.start(at: start, mission: mission, countdown: false, workout: workout)))
            _ = ticker.ticks(before: start)
            var (before, after, flown) = (0, 0, 0)
            var (bodyFlown, bodyOutside) = (0, 0)
            var sample = try nextPressure()
            var bodySample = try nextBody()
            /// Pressure and body samples up to `time`, in one time order.
            func flyPressure(through time: Double) throws(CLIError) {
                while true {
                    let p = sample.flatMap { $0.time <= time ? $0 : nil }
                    let b = bodySample.flatMap { $0.time <= time ? $0 : nil }
                    if let p, b.map({ p.time <= $0.time }) ?? true {
                        if p.time < start {
                            before += 1
                        } else if p.time > end {
                            after += 1
                        } else {
                            fly(.pressure(p))
                            flown += 1
                        }
                        sample = try nextPressure()
                    } else if let b {
                        if b.time < start || b.time > end {
                            bodyOutside += 1
                        } else {
                            fly(.body(b))
                            bodyFlown += 1
                        }
                        bodySample = try nextBody()
                    } else {
                        return
                    }
                }
            }
            var n = 0
            while let report = nextReport() {
                guard report.time >= start else { continue }
                n += 1
                if let progress, n % 1024 == 0, end > start {
                    progress((report.time - start) / (end - start))
                }
                try flyPressure(through: report.time.nextDown)
                while let press = pending.first, press.time <= report.time {
                    pending.removeFirst()
                    fly(press)
                }
                fly(.fix(report))
            }
            try flyPressure(through: .infinity)
            // Presses after the last fix (an END held at the finish).
            for press in pending { fly(press) }
            let (landed, outputs) = engine.end(sentAt: nil)
            take(outputs)
            guard let live = landed.flight ?? landedEarly ?? engine.computer.landedByItself else {
                throw CLIError("\(name): the engine did not land a flight (\(landed))")
            }
            // The flight the logbook saves (smoothed at touchdown), whether or not it is saved.
            let flight = Logbook.saved(live, inputs: inputs, configuration: engine.computer.configuration)
            if !keepInputs { inputs = [] }
            return Result(
                flight: flight, callouts: callouts, fixCount: 0, pressureCount: flown, pressureBefore: before,
                pressureAfter: after, bodyCount: bodyFlown, bodyOutside: bodyOutside, inputs: inputs)
        }
    }
}
