import Foundation
import RunWayHardware
import Testing

@Suite("Battery from /sys/class/power_supply: absent is UNKNOWN, under 20 % is not OK")
struct BatteryTests {
    func sysfs(_ supplies: [String: [String: String]]) throws -> String {
        let root = NSTemporaryDirectory() + "runway-sysfs-\(UUID().uuidString)"
        for (name, files) in supplies {
            try FileManager.default.createDirectory(
                atPath: "\(root)/\(name)", withIntermediateDirectories: true)
            for (file, value) in files {
                try (value + "\n").write(toFile: "\(root)/\(name)/\(file)", atomically: true, encoding: .utf8)
            }
        }
        return root
    }

    @Test func absentIsUnknownAndNotOK() {
        let status = BatteryStatus.read(root: "/nonexistent/power_supply")
        #expect(status.capacity == nil)
        #expect(status.text == "UNKNOWN")
        #expect(!status.isOK)
    }

    @Test func theBatteryIsFoundAmongOtherSupplies() throws {
        let root = try sysfs([
            "AC": ["type": "Mains", "online": "1"],
            "BAT0": ["type": "Battery", "capacity": "57", "status": "Discharging"],
        ])
        let status = BatteryStatus.read(root: root)
        #expect(status == BatteryStatus(capacity: 57, state: "Discharging"))
        #expect(status.isOK)
        #expect(status.text == "57 % (Discharging)")
    }

    @Test func belowTwentyPercentIsNotOK() throws {
        let root = try sysfs(["battery": ["type": "Battery", "capacity": "19"]])
        #expect(!BatteryStatus.read(root: root).isOK)
        let twenty = try sysfs(["battery": ["type": "Battery", "capacity": "20"]])
        #expect(BatteryStatus.read(root: twenty).isOK)
    }
}
