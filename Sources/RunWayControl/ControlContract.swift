/// The control socket's contract: what `runway` sends `runwayd` and what comes back. (Being
/// filled in: the requests and replies move here from RunWayDaemon.)
public enum ControlContract {
    /// The wire's version: a reply says it, so a client can tell an older daemon.
    public static let protocolVersion = 1
}
