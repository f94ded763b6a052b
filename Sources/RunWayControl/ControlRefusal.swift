/// Why runwayd did not carry out a request, as typed cases; on the wire it is the `"error"`
/// sentence (`Tests/Fixtures/control/reply-refused-*`), and a client reads a sentence it knows
/// back into its case.
public enum ControlRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request itself is wrong (not JSON, an unknown command, a mission out of range …):
    /// `ControlRequest.Refusal`'s sentence. Also any sentence this version does not know.
    case invalid(String)
    /// A line past `ControlRequest.maxLineBytes`; the client is dropped.
    case tooLong
    /// START, PAUSE, RESUME or STOP before the first fix on a board that does not hold them.
    case noGPSTimeYet
    /// A request that is no engine command reached the engine (never from `runway`).
    case notACommand
    /// A request line begun and not finished within the deadline; the client is dropped.
    case notCompleted(seconds: Int)
    /// Every client slot is taken by a client that is being served.
    case full(clients: Int)
    /// Every slot was held by idle clients: this one (the oldest) was closed for a new one.
    case madeRoom(slots: Int)
    /// The answer did not come within the deadline; the request is still being carried out.
    case busy(seconds: Int)
    /// Too many earlier requests are still being carried out.
    case overloaded
    /// `"ok"` was not true and there was no `"error"`.
    case unexplained
    /// A `sensors-*` request runwayd could not carry out (`SensorRefusal`: each cause its case).
    case sensors(SensorRefusal)

    private static let fixed: [(ControlRefusal, String)] = [
        (.tooLong, "request longer than 64 KiB"),
        (.noGPSTimeYet, "no GPS time yet: wait for the first fix (runway status shows the signal)"),
        (.notACommand, "not a command"),
        (
            .overloaded,
            "runwayd is busy with earlier requests that have not finished; try again in a few seconds"
        ),
    ]

    /// The sentence `runway` prints after "runwayd refused: ".
    public var description: String { wireMessage ?? "no reason given" }

    /// The `"error"` field (none for `unexplained`).
    var wireMessage: String? {
        switch self {
        case .invalid(let message): message
        case .notCompleted(let seconds): "request not completed within \(seconds) s"
        case .full(let clients): "busy: \(clients) clients already"
        case .madeRoom(let slots): "closed to make room: all \(slots) slots were held"
        case .busy(let seconds):
            "runwayd is busy (writing the logbook) and did not answer within \(seconds) s; the request "
                + "is still being carried out: ask again with runway status"
        case .unexplained: nil
        case .sensors(let refusal): refusal.description
        default: Self.fixed.first { $0.0 == self }?.1
        }
    }

    /// The case a sentence from runwayd stands for; `.invalid` when it is none of the others.
    public init(message: String) {
        if let known = Self.fixed.first(where: { $0.1 == message }) {
            self = known.0
        } else if let n = Self.number(in: message, between: "request not completed within ", and: " s") {
            self = .notCompleted(seconds: n)
        } else if let n = Self.number(in: message, between: "busy: ", and: " clients already") {
            self = .full(clients: n)
        } else if let n = Self.number(
            in: message, between: "closed to make room: all ", and: " slots were held")
        {
            self = .madeRoom(slots: n)
        } else if let n = Self.number(
            in: message, between: "runwayd is busy (writing the logbook) and did not answer within ",
            and: " s; the request is still being carried out: ask again with runway status")
        {
            self = .busy(seconds: n)
        } else if let sensors = SensorRefusal(message: message) {
            self = .sensors(sensors)
        } else {
            self = .invalid(message)
        }
    }

    /// The whole number between `prefix` and `suffix` when `text` is exactly that.
    private static func number(in text: String, between prefix: String, and suffix: String) -> Int? {
        guard text.hasPrefix(prefix), text.hasSuffix(suffix), text.count > prefix.count + suffix.count else {
            return nil
        }
        let digits = text.dropFirst(prefix.count).dropLast(suffix.count)
        // Written as the daemon writes a number (no leading zero), so the case says the same words.
        guard digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            digits.count == 1 || digits.first != "0"
        else { return nil }
        return Int(digits)
    }
}
