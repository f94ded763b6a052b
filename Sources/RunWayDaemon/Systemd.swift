import CSystemd
import Foundation

/// Talking to systemd through libsystemd: the notify protocol and the journal. Outside systemd
/// (no `NOTIFY_SOCKET`) notifications do nothing, and logs go to standard error.
public enum Systemd {
    /// `READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`. Returns whether systemd was told.
    /// Never blocks for long: a STATUS= line that finds systemd's queue full is dropped (the next
    /// one supersedes it); other states are tried again for up to a second.
    @discardableResult
    public static func notify(_ state: String) -> Bool {
        for _ in 0..<(state.hasPrefix("STATUS=") ? 1 : 50) {
            let result = rw_notify_now(state)
            if result != -EAGAIN { return result > 0 }
            usleep(20_000)
        }
        return false
    }

    /// How often systemd wants `WATCHDOG=1` (half its `WatchdogSec=`), or nil when it does not.
    public static var watchdogInterval: Duration? {
        let usec = rw_watchdog_usec()
        return usec > 0 ? .microseconds(Int64(usec / 2)) : nil
    }

    /// Listening sockets handed over by socket activation (fd 3 on), if any.
    public static func inheritedSockets() -> [Int32] {
        let count = sd_listen_fds(1)
        guard count > 0 else { return [] }
        return (0..<count).map { SD_LISTEN_FDS_START + $0 }
    }
}

/// Log lines with a priority and structured fields (flight id, phase): to the journal when
/// running under systemd (`JOURNAL_STREAM` set), to standard error otherwise.
public struct DaemonLog: Sendable {
    public enum Priority: Int32, Sendable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7
    }

    public let toJournal: Bool
    private let sink: @Sendable (String) -> Void

    public init(
        toJournal: Bool = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil,
        sink: @escaping @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    ) {
        self.toJournal = toJournal
        self.sink = sink
    }

    public func log(_ priority: Priority, _ message: String, fields: [String: String] = [:]) {
        guard toJournal else {
            let extra = fields.keys.sorted().map { " \($0.lowercased())=\(fields[$0]!)" }.joined()
            sink("runwayd: \(message)\(extra)")
            return
        }
        var entries = ["MESSAGE=\(message)", "PRIORITY=\(priority.rawValue)", "SYSLOG_IDENTIFIER=runwayd"]
        for (key, value) in fields.sorted(by: { $0.key < $1.key }).prefix(12) {
            entries.append("RUNWAY_\(key.uppercased())=\(value)")
        }
        var pointers = entries.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        let count = Int32(pointers.count)
        pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) {
                _ = rw_journal_send($0.baseAddress, count)
            }
        }
    }
}
