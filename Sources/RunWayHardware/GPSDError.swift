import CGPS
import Foundation

/// Why the gpsd client is not receiving reports. Each case carries what the runner or a
/// maintainer needs to fix it; the client keeps trying, with back-off, whatever the case.
public enum GPSDError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host name does not resolve (libgps NL_NOHOST).
    case nameDoesNotResolve(host: String)
    /// Nothing accepted the connection (libgps NL_NOCONNECT: refused, unreachable, timed out).
    case connectionRefused(GPSDEndpoint)
    /// Something accepted the connection but never sent gpsd's VERSION greeting.
    case noGreeting(GPSDEndpoint, seconds: Double)
    /// gpsd (or whatever was there) closed the connection.
    case closed(GPSDEndpoint)
    /// A system call failed; `errno` is the system's code.
    case system(operation: String, errno: Int32)
    /// Another libgps netlib code (socket creation, options, service lookup).
    case libgps(code: Int32)

    /// What `gps_open` reported: an errno (> 0) or a libgps netlib code (< 0), named from gps.h.
    static func opening(_ code: Int32, endpoint: GPSDEndpoint) -> GPSDError {
        switch code {
        case NL_NOHOST: .nameDoesNotResolve(host: endpoint.host)
        case NL_NOCONNECT: .connectionRefused(endpoint)
        case let errno where errno > 0: .system(operation: "connecting to gpsd at \(endpoint)", errno: errno)
        default: .libgps(code: code)
        }
    }

    /// gpsd is not there to be reached at all (the name does not resolve, or nothing accepts
    /// the connection): retrying within seconds will not change it.
    public var isRefusal: Bool {
        switch self {
        case .nameDoesNotResolve, .connectionRefused: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .nameDoesNotResolve(let host):
            "the host name \"\(host)\" does not resolve (check the gpsd address)"
        case .connectionRefused(let endpoint):
            "nothing accepts connections at \(endpoint) — is gpsd running? (systemctl status gpsd)"
        case .noGreeting(let endpoint, let seconds):
            "\(endpoint) accepted the connection but sent no gpsd greeting within \(Int(seconds)) s — is that gpsd's port?"
        case .closed(let endpoint):
            "gpsd at \(endpoint) closed the connection"
        case .system(let operation, let errno):
            "\(operation): \(String(cString: strerror(errno))) (errno \(errno))"
        case .libgps(let code):
            "libgps could not open a connection (libgps error \(code))"
        }
    }
}

/// Process-wide signal dispositions the drivers rely on.
public enum ProcessSignals {
    /// A write to a socket or pipe whose reader has gone raises SIGPIPE, whose default action
    /// kills the process without a word. libgps writes to gpsd with plain `write`, so nothing in
    /// runway may leave SIGPIPE at its default: the write then fails with EPIPE, which each
    /// caller handles (the gpsd client reconnects; standard output ends quietly). Idempotent.
    public static func ignoreBrokenPipe() {
        _ = signal(SIGPIPE, SIG_IGN)
    }
}
