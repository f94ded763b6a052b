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
