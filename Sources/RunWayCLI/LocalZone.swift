import Foundation
import RunWayControl
import RunWayCore

/// The time zone a command shows local times in (SPEC "Export over USB": the configured zone,
/// else the system's). In order: `--tz Region/City`, `--utc-offset ±H[:MM]`, the configuration's
/// `time_zone`, the system's (`TZ`, `/etc/localtime`), UTC. A named zone gives each time its own
/// offset, so a run in summer shows summer time; every local time is shown with its label, and
/// JSON stays in UTC with the offset used beside it.
public struct LocalZone: Sendable {
    enum Kind: Sendable {
        case named(TimeZone)
        /// Seconds east of UTC.
        case fixed(Int)
    }

    let kind: Kind

    public static let utc = LocalZone(kind: .fixed(0))

    /// Resolves the zone from the command line, the configuration at `configuration`, then the
    /// system.
    public static func resolve(tz: String?, utcOffset: String?, configuration: String) throws(CLIError)
        -> LocalZone
    {
        if tz != nil && utcOffset != nil {
            throw .usage("--tz and --utc-offset do not go together: give one")
        }
        if let tz {
            guard let zone = TimeZone(identifier: tz) else {
                throw .usage(
                    "--tz takes an IANA time zone such as Asia/Seoul or Europe/Berlin, not \"\(tz)\"")
            }
            return LocalZone(kind: .named(zone))
        }
        if let utcOffset {
            guard let seconds = parseOffset(utcOffset) else {
                throw .usage(
                    "--utc-offset takes hours east of UTC, ±H or ±H:MM (9, -3, +5:30, 5.75), not \"\(utcOffset)\""
                )
            }
            return LocalZone(kind: .fixed(seconds))
        }
        return configured((try? DaemonConfiguration.load(path: configuration))?.timeZone)
    }

    /// The configuration's `time_zone` (an IANA name), else the system's.
    static func configured(_ name: String?) -> LocalZone {
        LocalZone(kind: .named(name.flatMap(TimeZone.init(identifier:)) ?? TimeZone.current))
    }

    /// `9`, `-3`, `+5:30`, `-03:30`, `5.5` (hours): seconds east of UTC, within ±14 h.
    static func parseOffset(_ text: String) -> Int? {
        var body = Substring(text)
        var sign = 1
        if body.first == "+" || body.first == "-" {
            sign = body.first == "-" ? -1 : 1
            body = body.dropFirst()
        }
        let seconds: Int
        if body.contains(":") {
            let parts = body.split(separator: ":", omittingEmptySubsequences: false)
            // Hours checked before they are multiplied: 99999999999999999999:00 is no offset.
            guard parts.count == 2, let h = DecimalText.whole(parts[0]), let m = DecimalText.whole(parts[1]),
                (0...14).contains(h), (0..<60).contains(m), parts[1].count == 2
            else { return nil }
            seconds = h * 3600 + m * 60
        } else {
            guard let hours = DecimalText.number(body), (0...14).contains(hours) else { return nil }
            seconds = Int((hours * 3600).rounded())
            guard seconds % 60 == 0 else { return nil }
        }
        guard seconds <= 14 * 3600 else { return nil }
        return sign * seconds
    }

    /// Seconds east of UTC at the Unix time `time`.
    public func offset(at time: Double) -> Int {
        switch kind {
        case .named(let zone): zone.secondsFromGMT(for: Date(timeIntervalSince1970: time))
        case .fixed(let seconds): seconds
        }
    }

    /// `UTC+9`, `UTC+5:30`, `UTC−3`, `UTC`.
    static func offsetLabel(_ seconds: Int) -> String {
        guard seconds != 0 else { return "UTC" }
        let minutes = abs(seconds) / 60
        let hm = minutes % 60 == 0 ? "\(minutes / 60)" : "\(minutes / 60):\(UTCTime.pad(minutes % 60, 2))"
        return "UTC\(seconds > 0 ? "+" : "−")\(hm)"
    }

    /// What a local time at `time` is labelled with: `Asia/Seoul, UTC+9` or `UTC+5:30`.
    public func label(at time: Double) -> String {
        let offset = Self.offsetLabel(self.offset(at: time))
        switch kind {
        case .named(let zone) where !Self.utcNames.contains(zone.identifier):
            return "\(zone.identifier), \(offset)"
        default: return offset
        }
    }

    /// The zone's name without a moment: `Asia/Seoul`, or `UTC+5:30` for a fixed offset.
    public var name: String {
        switch kind {
        case .named(let zone) where Self.utcNames.contains(zone.identifier): "UTC"
        case .named(let zone): zone.identifier
        case .fixed(let seconds): Self.offsetLabel(seconds)
        }
    }

    static let utcNames: Set<String> = ["UTC", "GMT", "Etc/UTC", "Etc/GMT", "Universal", "Zulu"]

    /// `2026-10-03 15:59 (Asia/Seoul, UTC+9)`.
    public func describe(_ time: Double) -> String {
        let (date, clock) = UTCTime.components(Int(time.rounded(.down)) + offset(at: time))
        return "\(date) \(clock.prefix(5)) (\(label(at: time)))"
    }

    /// The date and `HH:MM` of `time` in this zone.
    public func components(_ time: Double) -> (date: String, time: String) {
        let (date, clock) = UTCTime.components(Int(time.rounded(.down)) + offset(at: time))
        return (date, String(clock.prefix(5)))
    }
}
