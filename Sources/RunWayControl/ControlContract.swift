/// The control socket's contract: what `runway` sends `runwayd` and what comes back, one JSON
/// object a line. Requests are `ControlRequest`; replies `ControlResponse` (`ControlOutcome`, or
/// a `ControlRefusal`); subscribers get `ControlEvent`s; the live state is `ControlStatus`.
/// `Tests/Fixtures/control/` holds every line as it is on the wire. Fields are added, never
/// renamed or dropped; either end reads past fields it does not know (a request only when it
/// says a newer `protocol_version`, so a typo in a script is still refused).
public enum ControlContract {
    /// The wire's version: a reply says it, so a client can tell an older daemon.
    public static let protocolVersion = 1
}
