import Foundation
import Testing

@Suite("runway baro and gps: each part alone, saying plainly what is missing")
struct BenchToolTests {
    @Test func baroWithoutTheDeviceSaysWhatToCheck() throws {
        let result = try RunWayBinary.run(["baro", "--bus", "97", "--count", "1"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("/dev/i2c-97: no such device — is dtparam=i2c_arm=on set in config.txt?"))
    }

    @Test func baroPrintsChipTemperaturePressureAndRelativeAltitude() throws {
        let result = try RunWayBinary.run(["baro", "--simulated", "--count", "2", "--json"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let first = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["chip_id"] as? String == "0x58")
        #expect(first["relative_altitude_m"] as? Double == 0)
        #expect(abs((first["pressure_pa"] as? Double ?? 0) - 101_325) < 0.2)
        #expect(first["temperature_c"] != nil)
    }

    @Test func baroRejectsAnAddressNoBMP280Has() throws {
        let result = try RunWayBinary.run(["baro", "--address", "0x40"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("0x76 or 0x77"))
    }

    @Test func gpsRejectsABadEndpoint() throws {
        let result = try RunWayBinary.run(["gps", "host:port"])
        #expect(result.status == 2)
    }
}

@Suite("runway buzz and buttons")
struct GPIOToolTests {
    @Test func buzzSimulatedPrintsThePatternTimeline() throws {
        let result = try RunWayBinary.run(["buzz", "sink-rate", "--simulated"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 6)
        #expect(result.stdout.hasPrefix("    0 ms  ON"))
    }

    @Test func buzzWithoutAChipSaysSo() throws {
        let result = try RunWayBinary.run(["buzz", "split", "--chip", "gpiochip97"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/dev/gpiochip97: no such GPIO chip"))
    }

    @Test func anUnknownPatternIsAUsageError() throws {
        let result = try RunWayBinary.run(["buzz", "klaxon", "--simulated"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("sink-rate"))
    }

    @Test func aBadLineNumberIsAUsageError() throws {
        let buttons = try RunWayBinary.run(["buttons", "--pause", "x"])
        #expect(buttons.status == 2)
        #expect(buttons.stderr.contains("--pause takes a GPIO line number"))
        let buzz = try RunWayBinary.run(["buzz", "split", "--line", "-3"])
        #expect(buzz.status == 2)
        #expect(buzz.stderr.contains("--line takes a GPIO line number"))
    }

    @Test func buttonsWithoutAChipSaysSo() throws {
        let result = try RunWayBinary.run(["buttons", "--chip", "gpiochip97"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no such GPIO chip"))
    }
}
