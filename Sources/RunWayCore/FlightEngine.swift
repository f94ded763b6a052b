/// The flight engine: the one owner of a flight in progress, everywhere one flies — the board
/// (runwayd), the simulated board, `runway demo` and `fly`, recovery and reprocessing, the bench.
///
/// Inputs come in (`handle(_:)`), `FlightComputer` decides, and everything that comes out is a
/// `FlightEvent` told to the engine's observers, in order: the recorder, the buzzer's
/// annunciator, the status line, the socket's streams (`FlightStreams`). An observer may post news
/// of its own (`post(_:)`: the recorder's stores and failures); every observer hears it as soon as
/// the poster returns, before the event in hand goes on to the next observer — so what the
/// recorder made of a landing's raw log is said before anyone after it hears the landing (the
/// stored flight, smoothed, is said at the recorder's next event: `FlightRecorder.landingDue`). The flight's
/// lifecycle belongs here: an observer never ends, resets or pauses a flight, nor flies an input.
///
/// Threading, stated once:
/// - The engine is an actor whose executor its maker chooses. runwayd gives it a
///   `ThreadExecutor` (RunWaySystem): every input, and every observer call, runs on that thread
///   of its own, so the recorder's durable writes (`fdatasync`) may block there and never block
///   Swift's cooperative pool. Services `await` the engine; nothing on the engine's thread awaits.
/// - A replay (fly, reprocess, recovery, the bench) gives it a `CallerThreadExecutor` and drives
///   it synchronously with `assumeIsolated` from the thread that made it; isolation is checked.
/// - Observers are called synchronously on the engine's executor. They may block on their own
///   I/O (the recorder) but must not wait for anything that waits for the engine.
public actor FlightEngine {
    /// The flight's computer: the engine's state, readable from inside the engine's isolation.
    public private(set) var computer: FlightComputer
    /// Inputs handled so far: the pipeline's progress, which the watchdog checks.
    public private(set) var handled = 0
    private var observers: [any FlightObserver]
    /// News an observer posted while it was being told an event: told to everyone when it
    /// returns, in order, never re-entrantly.
    private var posted: [any FlightNews] = []
    private var telling = false
    private let executor: any SerialExecutor

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// - Parameters:
    ///   - executor: where the engine runs (see the type's threading).
    ///   - observers: who hears what the flight says, in this order.
    public init(
        computer: FlightComputer = FlightComputer(), on executor: any SerialExecutor,
        observers: sending [any FlightObserver] = []
    ) {
        self.computer = computer
        self.executor = executor
        self.observers = observers
    }

    public var pfd: PFD { computer.pfd }
    public var phase: FlightPhase { computer.phase }
    public var isFlying: Bool { computer.isFlying }
    public var airborneRun: AirborneRun? { computer.airborneRun }

    /// The first observer of type `T` (the recorder, for the logbook's side of the engine).
    public func observer<T: FlightObserver>(_ type: T.Type) -> T? {
        observers.lazy.compactMap { $0 as? T }.first
    }

    /// Flies one input; returns what it caused (the observers hear it first).
    @discardableResult
    public func handle(_ input: EngineInput) -> [EngineOutput] {
        precondition(!telling, "an observer flew an input: observers only listen and post news")
        let outputs = computer.handle(input)
        handled += 1
        tell(.flew(input, outputs))
        return outputs
    }

    /// END at the latest input's time (a replay's last word), obeying the stale-stop rule; the
    /// observers hear it as an END input. A landed flight comes back whole.
    public func end(sentAt: Double?) -> (result: EndResult, outputs: [EngineOutput]) {
        precondition(!telling, "an observer flew an input: observers only listen and post news")
        let (result, outputs) = computer.end(sentAt: sentAt)
        tell(.flew(.end(at: computer.now, sentAt: sentAt), outputs + [.ended(result)]))
        return (result, outputs)
    }

    /// Flies `inputs` with the ticks a live run would have given between them (`ReplayTicker`):
    /// a trace, or a raw log recovered. `progress` is told the share flown every 4096 inputs.
    public func replay(
        _ inputs: some Collection<EngineInput>, progress: ((Double) -> Void)? = nil
    ) {
        var ticker = ReplayTicker()
        if let rotate = computer.rotateTime { _ = ticker.ticks(before: rotate) }
        for (n, input) in inputs.enumerated() {
            for tick in ticker.ticks(before: input, in: computer) { handle(.tick(tick)) }
            handle(input)
            if let progress, n % 4096 == 0 { progress(Double(n) / Double(inputs.count)) }
        }
    }

    /// Continues a flight rebuilt from its raw log (a restart within the window): its computer
    /// becomes the engine's. The caller (the recorder's start-up) resumes recording it.
    public func adopt(_ computer: FlightComputer) { self.computer = computer }

    /// News from an observer (told to everyone once it returns) or from outside (told now).
    public func post(_ news: any FlightNews) {
        if telling {
            posted.append(news)
        } else {
            tell(.news(news))
        }
    }

    /// Shutdown: the observers hear `.closing` (the recorder commits a flight in the air, which
    /// stays open; streams end). The engine takes no input after this.
    public func close() { tell(.closing) }

    private func tell(_ event: FlightEvent) {
        guard !observers.isEmpty else { return }  // a bare replay: nothing to tell
        telling = true
        defer { telling = false }
        deliver(event)
    }

    /// `event` to each observer in turn; after each, what it posted, to everyone.
    private func deliver(_ event: FlightEvent) {
        for observer in observers {
            observer.engine(self, told: event)
            guard !posted.isEmpty else { continue }
            let news = posted
            posted.removeAll()
            for item in news { deliver(.news(item)) }
        }
    }
}

/// What a flight in progress says: the one thing its observers hear.
public enum FlightEvent: Sendable {
    /// An input flown, and what it caused: states, callouts, takeoff (`.began`), the end
    /// (`.ended`, with the landed flight whole).
    case flew(EngineInput, [EngineOutput])
    /// What an observer or a service made of the flight that others may want: the recorder's
    /// stores and failures, the board's faults. Each kind is its own `FlightNews` type.
    case news(any FlightNews)
    /// The engine is shutting down with whatever is in the air.
    case closing
}

/// A kind of news about the flight (each target declares its own: the recorder's reports, the
/// board's faults). An observer reads the kinds it knows and passes over the rest.
public protocol FlightNews: Sendable {}

/// Who hears the flight: called on the engine's executor for every event, in order (see
/// `FlightEngine`'s threading). The engine is passed isolated, so an observer may read its
/// computer and post news; it must not wait for anything that waits for the engine.
public protocol FlightObserver: AnyObject {
    func engine(_ engine: isolated FlightEngine, told event: FlightEvent)
}
