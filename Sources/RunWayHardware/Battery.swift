import Foundation

/// The battery as the takeoff checklist reads it, from /sys/class/power_supply.
public struct BatteryStatus: Sendable, Equatable {
    /// Percent, or nil when the board has no battery gauge (UNKNOWN).
    public var capacity: Int?
    /// The kernel's word: Charging, Discharging, Full, Not charging, Unknown.
    public var state: String?

    public init(capacity: Int? = nil, state: String? = nil) {
        self.capacity = capacity
        self.state = state
    }

    /// Below 20 % is not OK (seed 004); unknown is not OK either, and says so.
    public var isOK: Bool { (capacity ?? 0) >= 20 }

    public var text: String { capacity.map { "\($0) %\(state.map { " (\($0))" } ?? "")" } ?? "UNKNOWN" }

    /// Reads the first supply of type Battery under `root`.
    public static func read(root: String = "/sys/class/power_supply") -> BatteryStatus {
        let files = FileManager.default
        guard let supplies = try? files.contentsOfDirectory(atPath: root) else { return BatteryStatus() }
        for name in supplies.sorted() {
            let base = "\(root)/\(name)"
            func value(_ file: String) -> String? {
                (try? String(contentsOfFile: "\(base)/\(file)", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard value("type") == "Battery", let capacity = value("capacity").flatMap(Int.init),
                (0...100).contains(capacity)
            else { continue }
            return BatteryStatus(capacity: capacity, state: value("status"))
        }
        return BatteryStatus()
    }
}

/// Decides when the battery is said: low once on the way down (said again only after it was
/// charged back 5 points above the threshold), critical once likewise. A charging battery is
/// never critical: it is not about to die.
public struct BatteryMonitor: Sendable {
    public enum Alert: Sendable, Equatable {
        case low(percent: Int)
        case critical(percent: Int)
    }

    public let lowPercent: Int
    public let criticalPercent: Int
    private var saidLow = false
    private var saidCritical = false

    public init(lowPercent: Int = 20, criticalPercent: Int = 5) {
        self.lowPercent = lowPercent
        self.criticalPercent = min(criticalPercent, lowPercent)
    }

    /// One reading; returns what is to be said now, if anything.
    public mutating func observe(_ status: BatteryStatus) -> Alert? {
        guard let percent = status.capacity else { return nil }
        if percent >= lowPercent + 5 { saidLow = false }
        if percent >= criticalPercent + 5 || status.state == "Charging" { saidCritical = false }
        if percent <= criticalPercent, status.state != "Charging", !saidCritical {
            saidCritical = true
            saidLow = true
            return .critical(percent: percent)
        }
        if percent < lowPercent, !saidLow {
            saidLow = true
            return .low(percent: percent)
        }
        return nil
    }
}
