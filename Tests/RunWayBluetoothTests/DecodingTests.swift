import Testing

@testable import RunWayBluetooth

/// The Heart Rate Measurement, RSC Measurement and Battery Level decoders, byte by byte against
/// the flag combinations the specifications define, and payloads no conforming sensor sends.
@Suite("GATT payload decoding")
struct DecodingTests {
    typealias HRM = HeartRateMeasurement

    func malformedReason(_ body: () throws(BluetoothError) -> Void) -> String? {
        do throws(BluetoothError) {
            try body()
            return nil
        } catch {
            guard case .malformed(_, let reason) = error else { return "unexpected \(error)" }
            return reason
        }
    }

    // MARK: Heart Rate Measurement

    @Test func eightBitValueWithoutContactSupport() throws {
        let m = try HRM.decode([0x00, 72])
        #expect(m == HRM(beatsPerMinute: 72, contact: .notSupported, energyExpended: nil, rrIntervals: []))
        #expect(m.usableHeartRate == 72)
    }

    @Test func sixteenBitValueIsLittleEndian() throws {
        // 0x012C = 300: decoded as sent, not a usable heart rate.
        let m = try HRM.decode([0x01, 0x2C, 0x01])
        #expect(m.beatsPerMinute == 300)
        #expect(m.usableHeartRate == nil)
        #expect(try HRM.decode([0x01, 150, 0]).beatsPerMinute == 150)
    }

    @Test(arguments: [
        (UInt8(0b000), HRM.Contact.notSupported), (0b010, .notSupported), (0b100, .notDetected),
        (0b110, .detected),
    ])
    func contactStatusBits(flags: UInt8, contact: HRM.Contact) throws {
        #expect(try HRM.decode([flags, 140]).contact == contact)
        #expect(try HRM.decode([flags | 0x01, 140, 0]).contact == contact)
    }

    @Test func noSkinContactIsMissingNeverZeroOrTheStaleValue() throws {
        let m = try HRM.decode([0b100, 140])
        #expect(m.contact == .notDetected)
        #expect(m.usableHeartRate == nil)
        #expect(try HRM.decode([0b110, 140]).usableHeartRate == 140)
    }

    @Test func zeroAndTwoHundredFiftyFiveDecodeAsSentButAreNotHeartRates() throws {
        let zero = try HRM.decode([0b110, 0])
        #expect(zero.beatsPerMinute == 0)
        #expect(zero.usableHeartRate == nil)
        let max = try HRM.decode([0b110, 255])
        #expect(max.beatsPerMinute == 255)
        #expect(max.usableHeartRate == nil)
        #expect(try HRM.decode([0b110, 250]).usableHeartRate == 250)
        #expect(try HRM.decode([0b110, 20]).usableHeartRate == 20)
        #expect(try HRM.decode([0b110, 19]).usableHeartRate == nil)
    }

    @Test func energyExpendedFollowsTheValue() throws {
        #expect(try HRM.decode([0x08, 90, 0x34, 0x12]).energyExpended == 0x1234)
        let wide = try HRM.decode([0x09, 90, 0, 0xFF, 0xFF])
        #expect(wide.beatsPerMinute == 90)
        #expect(wide.energyExpended == 65535)
    }

    @Test(arguments: 1...9)
    func rrIntervalsInOneOver1024Seconds(count: Int) throws {
        // 1024 = 1 s, 512 = 0.5 s, …, and one past 255 in each byte: oldest first.
        let values: [UInt16] = (0..<count).map { (i: Int) -> UInt16 in
            UInt16(i % 2 == 0 ? 1024 + i : 512 + 257 * i)
        }
        var bytes: [UInt8] = [0x10, 150]
        for value in values { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        let m = try HRM.decode(bytes)
        #expect(m.rrIntervals == values.map { Double($0) / 1024 })
        #expect(m.energyExpended == nil)
    }

    @Test func everyFieldTogether() throws {
        // 16-bit 0x00A0 = 160 bpm, contact detected, 0x0102 kJ, RR 0x0180 = 384/1024 s, 0x0400 = 1 s.
        let m = try HRM.decode([0x1F, 0xA0, 0x00, 0x02, 0x01, 0x80, 0x01, 0x00, 0x04])
        #expect(
            m == HRM(beatsPerMinute: 160, contact: .detected, energyExpended: 258, rrIntervals: [0.375, 1.0]))
    }

    @Test func reservedBitsAreIgnored() throws {
        #expect(try HRM.decode([0xE0, 72]) == HRM.decode([0x00, 72]))
    }

    @Test func hostileHeartRatePayloads() {
        let cases: [([UInt8], String)] = [
            ([], "empty"),
            ([0x00], "before the 8-bit heart rate value"),
            ([0x01, 0x48], "before the 16-bit heart rate value"),
            ([0x08, 72, 0x01], "before the energy expended"),
            ([0x09, 72, 0], "before the energy expended"),
            ([0x10, 72], "no interval follows"),
            ([0x10, 72, 0x00, 0x04, 0x01], "not whole 16-bit intervals"),
            ([0x10, 72, 0x01], "not whole 16-bit intervals"),
            ([0xFF], "before the 16-bit heart rate value"),
            ([0xFF, 0x48, 0x00, 0x01], "before the energy expended"),
            ([0xFF, 0x48, 0x00, 0x01, 0x00], "no interval follows"),
            ([0x00, 72, 0x00], "after the last field"),
            ([0x08, 72, 1, 0, 9], "after the last field"),
        ]
        for (bytes, expected) in cases {
            let reason = malformedReason { () throws(BluetoothError) in _ = try HRM.decode(bytes) }
            #expect(reason?.contains(expected) == true, "\(bytes): \(reason ?? "decoded")")
        }
    }

    /// As the radio reads a strap: a whole heart rate survives a bad tail (its fault returned
    /// to be counted); a payload without a whole heart rate is still malformed.
    @Test func aBadTailKeepsTheHeartRate() throws {
        for bytes: [UInt8] in [[0x10, 72, 0x01], [0x08, 72, 0x01], [0x00, 72, 0x00], [0x10, 72]] {
            let (beat, tail) = try HRM.decodeKeepingValue(bytes)
            #expect(beat.beatsPerMinute == 72 && beat.rrIntervals.isEmpty && beat.energyExpended == nil)
            guard case .malformed? = tail else {
                Issue.record("\(bytes): \(String(describing: tail))")
                continue
            }
        }
        let (good, none) = try HRM.decodeKeepingValue([0x16, 140, 0x00, 0x04])
        #expect(good.rrIntervals == [1] && good.contact == .detected && none == nil)
        for short: [UInt8] in [[], [0x00], [0x01, 0x48], [0xFF]] {
            #expect(throws: BluetoothError.self) { _ = try HRM.decodeKeepingValue(short) }
        }
    }

    @Test func everyByteStringUpToThreeBytesDecodesOrThrowsMalformed() {
        // No input crashes the decoders: all 1-, 2- and 3-byte payloads (16.8 M would be too
        // many; every flags byte with the second and third byte's edge values instead).
        let edges: [UInt8] = [0, 1, 0x7F, 0x80, 0xFE, 0xFF]
        for flags in UInt8.min...UInt8.max {
            var payloads: [[UInt8]] = [[flags]]
            for b in edges {
                payloads.append([flags, b])
                for c in edges { payloads.append([flags, b, c]) }
            }
            for bytes in payloads {
                let reasons = [
                    malformedReason { () throws(BluetoothError) in _ = try HRM.decode(bytes) },
                    malformedReason { () throws(BluetoothError) in _ = try RSCMeasurement.decode(bytes) },
                    malformedReason { () throws(BluetoothError) in _ = try BatteryLevel.decode(bytes) },
                ]
                for reason in reasons.compactMap({ $0 }) { #expect(!reason.hasPrefix("unexpected")) }
            }
        }
    }

    // MARK: RSC Measurement

    @Test func walkingWithSpeedAndCadenceOnly() throws {
        // 0x0200 / 256 = 2 m/s, cadence 110 steps/min, walking.
        let m = try RSCMeasurement.decode([0x00, 0x00, 0x02, 110])
        #expect(
            m
                == RSCMeasurement(
                    speed: 2, cadence: 110, strideLength: nil, totalDistance: nil, isRunning: false))
    }

    @Test func runningWithStrideLength() throws {
        // 0x0380 / 256 = 3.5 m/s, 176 steps/min, 0x0078 = 120 cm.
        let m = try RSCMeasurement.decode([0x05, 0x80, 0x03, 176, 0x78, 0x00])
        #expect(
            m
                == RSCMeasurement(
                    speed: 3.5, cadence: 176, strideLength: 1.2, totalDistance: nil, isRunning: true))
    }

    @Test func runningWithTotalDistance() throws {
        // 0x00012345 = 74565 dm = 7456.5 m.
        let m = try RSCMeasurement.decode([0x06, 0x40, 0x03, 180, 0x45, 0x23, 0x01, 0x00])
        #expect(m.speed == 3.25)
        #expect(m.cadence == 180)
        #expect(m.strideLength == nil)
        #expect(m.totalDistance == 7456.5)
        #expect(m.isRunning)
    }

    @Test func strideAndTotalDistanceTogether() throws {
        let m = try RSCMeasurement.decode([0x07, 0xFF, 0xFF, 255, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(m.speed == 65535.0 / 256)
        #expect(m.cadence == 255)
        #expect(m.strideLength == 655.35)
        #expect(m.totalDistance == Double(UInt32.max) / 10)
        // Bits 3–7 are reserved: ignored.
        #expect(try RSCMeasurement.decode([0xF8, 0, 1, 90]) == RSCMeasurement.decode([0x00, 0, 1, 90]))
    }

    @Test func hostileRSCPayloads() {
        let cases: [([UInt8], String)] = [
            ([], "empty"),
            ([0x00], "before the instantaneous speed"),
            ([0x00, 0x00, 0x02], "before the instantaneous cadence"),
            ([0x01, 0x00, 0x02, 170, 0x78], "before the stride length"),
            ([0x02, 0x00, 0x02, 170, 1, 2, 3], "before the total distance"),
            ([0x07, 0x00, 0x02, 170, 0x78, 0x00, 1, 2, 3], "before the total distance"),
            ([0xFF, 0x00, 0x02, 170], "before the stride length"),
            ([0x00, 0x00, 0x02, 170, 0], "after the last field"),
        ]
        for (bytes, expected) in cases {
            let reason = malformedReason { () throws(BluetoothError) in _ = try RSCMeasurement.decode(bytes) }
            #expect(reason?.contains(expected) == true, "\(bytes): \(reason ?? "decoded")")
        }
    }

    // MARK: Battery Level

    @Test func batteryLevel() throws {
        #expect(try BatteryLevel.decode([0]) == 0)
        #expect(try BatteryLevel.decode([87]) == 87)
        #expect(try BatteryLevel.decode([100]) == 100)
        for bytes: [UInt8] in [[], [101], [255], [50, 0]] {
            #expect(
                malformedReason { () throws(BluetoothError) in _ = try BatteryLevel.decode(bytes) } != nil)
        }
    }

    @Test func malformedNamesTheCharacteristic() {
        do throws(BluetoothError) {
            _ = try HRM.decode([])
            Issue.record("decoded an empty payload")
        } catch {
            #expect(error == .malformed(characteristic: 0x2A37, reason: "an empty payload"))
            #expect(error.description.contains("0x2A37"))
        }
    }
}
