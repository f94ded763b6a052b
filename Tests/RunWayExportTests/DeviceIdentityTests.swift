import Foundation
import RunWayCore
import RunWayExport
import RunWaySimulator
import RunWayTestSupport
import Testing

/// Who wrote a file (issue 28 row 6): the product's name, its release and the board's serial,
/// as Garmin's FIT SDK and fitdecode read them; the serial a hash of the machine id, stable and
/// never the id itself.
@Suite("The device a file names")
struct DeviceIdentityTests {
    static let machineID = "0123456789abcdef0123456789abcdef\n"

    @Test func theSerialIsAStableHashOfTheMachineIDAndNeverZero() {
        let serial = DeviceIdentity.serial(machineID: Self.machineID)
        #expect(serial == DeviceIdentity.serial(machineID: "0123456789abcdef0123456789abcdef"))
        #expect(serial != DeviceIdentity.serial(machineID: "fedcba9876543210fedcba9876543210"))
        #expect(serial != 0 && DeviceIdentity.serial(machineID: "") != 0)
        #expect(!String(serial, radix: 16).contains("0123456789abcdef"))
    }

    @Test func theReleaseIsFITsSoftwareVersion() {
        #expect(DeviceIdentity(version: "0.1.0", machineID: "").softwareVersion == 10)
        #expect(DeviceIdentity(version: "1.2.3", machineID: "").softwareVersion == 123)
        #expect(DeviceIdentity(version: "2.17.3", machineID: "").softwareVersion == 217)
        #expect(DeviceIdentity(version: "garbage", machineID: "").softwareVersion == 0)
    }

    @Test func fileIDAndDeviceInfoNameTheProductReleaseAndSerial() async throws {
        let (flight, inputs) = try await ExportSeriesTests.fly(Scenario.flat5k.ending(at: 600))
        let activity = try await offPool { ExportActivity(flight: flight, inputs: inputs) }
        let device = DeviceIdentity(version: "0.1.0", machineID: Self.machineID)
        let read = try await ReadBack.of(activity, device: device)
        read.expectValid("device")
        #expect(read.fit["product_name"] as? String == "RunWay Core")
        #expect(read.fit["serial_number"] as? Int == Int(device.serialNumber))
        let creator = try #require((read.fitdecode["descriptors"] as? [[String: Any]])?.first)
        #expect(creator["product_name"] as? String == "RunWay Core")
        #expect(creator["serial_number"] as? Int == Int(device.serialNumber))
        #expect(creator["software_version"] as? Double == 0.1)
        #expect((creator["descriptor"] as? String)?.contains("above sea level") == true)
        #expect(read.tcx["notes"] as? String == activity.description)
    }
}
