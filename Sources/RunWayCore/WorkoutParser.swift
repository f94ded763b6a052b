/// Reads a workout's text. Steps are separated by `;` or `,`; a repeat is `N x (steps)` or
/// `N x step`; a step is its kind, its length and up to two targets:
///
///     warmup 10min; 6x(work 400m @3:50±10, recover 200m); cooldown 1.5km
///     8 x (run 4min, walk 1min)
///     work 20min @z3; work 3km @4:30+-15 @hr150-165
///
/// Kinds: warmup (wu), work, recover (rec, rest), cooldown (cd), run, walk; a step without
/// one is work (`6x400m @3:50`). Lengths: m, km, mi
/// or s, min, h. Targets: a pace `M:SS` with `±S`, `+-S` or `~S` seconds either side (10 s
/// without), a heart rate `hrLOW-HIGH` in bpm, or a zone `zN`. Case and spaces do not matter.
/// Every number is checked against its range before a step is made of it; errors say the
/// step (counted as written) or the character where the text went wrong.
struct WorkoutParser {
    private let scalars: [Unicode.Scalar]
    private let zones: HeartRateZones
    private var at = 0
    /// Steps as written, for the errors' numbering.
    private var written = 0

    /// Past this a text is not a workout anybody typed (200 steps fit in about 4000).
    static let maximumLength = 4000
    /// Repeats inside repeats, at most this deep.
    static let maximumDepth = 4

    init(text: String, zones: HeartRateZones) {
        scalars = Array(text.lowercased().unicodeScalars)
        self.zones = zones
    }

    mutating func parse() throws(Workout.Invalid) -> [Workout.Step] {
        guard scalars.count <= Self.maximumLength else {
            throw .syntax(
                offset: Self.maximumLength, expected: "the end (at most \(Self.maximumLength) characters)")
        }
        skipSpaces()
        guard at < scalars.count else { throw .empty }
        let steps = try list(depth: 0)
        guard at == scalars.count else { throw .syntax(offset: at, expected: "\";\" or \",\" between steps") }
        return steps
    }

    // MARK: Grammar

    private mutating func list(depth: Int) throws(Workout.Invalid) -> [Workout.Step] {
        var steps: [Workout.Step] = []
        repeat {
            steps += try item(depth: depth)
            guard steps.count <= Workout.maximumSteps else { throw .tooManySteps(steps.count) }
        } while take(";") || take(",")
        return steps
    }

    private mutating func item(depth: Int) throws(Workout.Invalid) -> [Workout.Step] {
        skipSpaces()
        guard let count = repeatCount() else { return [try step()] }
        guard Workout.repeatRange.contains(count) else { throw .repeatCount(count) }
        let inner: [Workout.Step]
        if take("(") {
            guard depth < Self.maximumDepth else {
                throw .syntax(
                    offset: at - 1, expected: "a step (repeats nest at most \(Self.maximumDepth) deep)")
            }
            inner = try list(depth: depth + 1)
            guard take(")") else { throw .syntax(offset: at, expected: "\")\"") }
        } else {
            inner = [try step()]
        }
        let total = count * inner.count
        guard total <= Workout.maximumSteps else { throw .tooManySteps(total) }
        return Array(repeating: inner, count: count).flatMap { $0 }
    }

    /// `N x` (spaces allowed around the x); nil, and nothing taken, when the item is a step.
    private mutating func repeatCount() -> Int? {
        let start = at
        let digits = run { ("0"..."9").contains($0) }
        skipSpaces()
        guard !digits.isEmpty, take("x") || take("×") else {
            at = start
            return nil
        }
        // 99 at most, so more digits than that are one error, not an overflow.
        return digits.count > 4 ? 10_000 : Int(digits) ?? 10_000
    }

    private mutating func step() throws(Workout.Invalid) -> Workout.Step {
        written += 1
        let number = written
        skipSpaces()
        let word = run { ("a"..."z").contains($0) || $0 == "-" }
        // A bare length is a work step, as a runner writes intervals: `6x400m @3:50`.
        let bare = word.isEmpty && at < scalars.count && ("0"..."9").contains(scalars[at])
        guard !word.isEmpty || bare else {
            throw .syntax(offset: at, expected: "a step (warmup, work, recover, …)")
        }
        guard let kind = bare ? .work : Self.kinds[word] else { throw .unknownKind(word) }
        let length = try self.length(step: number)
        var step = Workout.Step(kind: kind, length: length)
        while take("@") {
            try target(into: &step, number: number)
        }
        return step
    }

    static let kinds: [String: Workout.Kind] = [
        "warmup": .warmup, "warm-up": .warmup, "wu": .warmup, "work": .work, "recover": .recover,
        "recovery": .recover, "rec": .recover, "rest": .recover, "cooldown": .cooldown,
        "cool-down": .cooldown, "cd": .cooldown, "run": .run, "walk": .walk,
    ]

    private mutating func length(step: Int) throws(Workout.Invalid) -> Workout.Length {
        skipSpaces()
        let start = at
        let digits = run { ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "+" }
        skipSpaces()
        let unit = run { ("a"..."z").contains($0) }
        guard let value = DecimalText.number(digits) else {
            throw .syntax(offset: start, expected: "a length (400m, 1.5km, 90s, 10min)")
        }
        let length: Workout.Length
        switch unit {
        case "m": length = .distance(value)
        case "km": length = .distance(value * 1000)
        case "mi": length = .distance(value * DistanceUnit.mile.metres)
        case "s": length = .duration(value)
        case "min": length = .duration(value * 60)
        case "h": length = .duration(value * 3600)
        default: throw .unknownUnit(digits + unit)
        }
        switch length {
        case .distance(let metres) where !Workout.stepDistanceRange.contains(metres):
            throw .length(step: step, "distance \(DecimalText.format(metres)) m is outside 50 m–100 km")
        case .duration(let seconds) where !Workout.stepDurationRange.contains(seconds):
            throw .length(step: step, "time \(DecimalText.format(seconds)) s is outside 10 s–24 h")
        default: return length
        }
    }

    /// A target as written, before its range is checked.
    private enum Target {
        case heartRate(low: Double, high: Double)
        case zone(Int)
        /// `zN:LOW-HIGH`: a zone with its beats (the normalised text's), not looked up.
        case zoneBand(Int, low: Double, high: Double)
        case pace(Double, deviation: Double)
    }

    private mutating func target(into step: inout Workout.Step, number: Int) throws(Workout.Invalid) {
        let target = try readTarget()
        do throws(Mission.Invalid) {
            switch target {
            case .heartRate(let low, let high):
                step.heartRate = try Mission.HeartRateBand(checkedLow: low, high: high)
            case .zone(let zone): step.heartRate = try Mission.HeartRateBand(zone: zone, of: zones)
            case .zoneBand(let zone, let low, let high):
                guard (1...5).contains(zone) else { throw .zone(zone) }
                step.heartRate = try Mission.HeartRateBand(checkedLow: low, high: high)
                step.heartRate?.zone = zone
            case .pace(let pace, let deviation):
                guard Mission.paceRange.contains(pace) else { throw .pace(pace) }
                guard Mission.deviationRange.contains(deviation) else { throw .deviation(deviation) }
                step.pace = Mission.PaceBand(targetPace: pace, allowedDeviation: deviation)
            }
        } catch {
            throw .band(step: number, error)
        }
    }

    private mutating func readTarget() throws(Workout.Invalid) -> Target {
        skipSpaces()
        let start = at
        let decimal: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) || $0 == "." }
        if take("hr") {
            let (low, high) = try beats(from: start)
            return .heartRate(low: low, high: high)
        }
        if take("z") {
            _ = take("one")
            skipSpaces()
            guard let zone = DecimalText.whole(run { ("0"..."9").contains($0) }) else {
                throw .syntax(offset: start, expected: "a zone z1…z5")
            }
            guard take(":") else { return .zone(zone) }
            let (low, high) = try beats(from: start)
            return .zoneBand(zone, low: low, high: high)
        }
        guard let pace = Mission.pace(parsing: run { ("0"..."9").contains($0) || $0 == ":" }) else {
            throw .syntax(offset: start, expected: "a target: a pace M:SS, hrLOW-HIGH or zN")
        }
        guard take("±") || take("+-") || take("~") else {
            return .pace(pace, deviation: Workout.defaultPaceDeviation)
        }
        skipSpaces()
        guard let deviation = DecimalText.number(run(decimal)) else {
            throw .syntax(offset: at, expected: "seconds either side of the pace")
        }
        return .pace(pace, deviation: deviation)
    }

    /// `LOW-HIGH` in bpm.
    private mutating func beats(from start: Int) throws(Workout.Invalid) -> (Double, Double) {
        let decimal: (Unicode.Scalar) -> Bool = { ("0"..."9").contains($0) || $0 == "." }
        skipSpaces()
        let low = run(decimal)
        guard take("-") else { throw .syntax(offset: at, expected: "\"-\" between a band's low and high") }
        skipSpaces()
        guard let l = DecimalText.number(low), let h = DecimalText.number(run(decimal)) else {
            throw .syntax(offset: start, expected: "a heart rate band LOW-HIGH in bpm")
        }
        return (l, h)
    }

    // MARK: Characters

    private mutating func skipSpaces() {
        while at < scalars.count, scalars[at].properties.isWhitespace { at += 1 }
    }

    /// Takes `word` (after spaces) when the text goes on with it.
    private mutating func take(_ word: String) -> Bool {
        skipSpaces()
        let wanted = Array(word.unicodeScalars)
        guard at + wanted.count <= scalars.count, Array(scalars[at..<(at + wanted.count)]) == wanted else {
            return false
        }
        at += wanted.count
        return true
    }

    /// The longest run of scalars from here that `accepts`.
    private mutating func run(_ accepts: (Unicode.Scalar) -> Bool) -> String {
        var text = String.UnicodeScalarView()
        while at < scalars.count, accepts(scalars[at]) {
            text.append(scalars[at])
            at += 1
        }
        return String(text)
    }
}
