import RunWayHardware
import Testing

@Suite("BMP280: datasheet compensation, start-up sequence, faults")
struct BMP280Tests {
    func driver(_ chip: SimulatedBMP280) -> BMP280 { BMP280(bus: chip, sleep: { _ in }) }

    @Test func theDatasheetVectorComesOutExactly() {
        let calibration = BMP280Calibration.datasheetExample
        let (t, tFine) = calibration.temperature(adc: 519_888)
        #expect(t == 2508)
        #expect(tFine == 128_422)
        #expect(calibration.pressure(adc: 415_148, tFine: tFine) == 25_767_233)
        #expect((Double(25_767_233) / 256 * 100).rounded() / 100 == 100_653.25)  // Pa, as quoted
    }

    @Test func calibrationRegistersRoundTripLittleEndianWithSignedWords() {
        let bytes = BMP280Calibration.datasheetExample.registers
        #expect(bytes.count == 24)
        #expect(bytes[0] == 0x70 && bytes[1] == 0x6B)  // 27504 = 0x6B70
        #expect(BMP280Calibration(registers: bytes) == .datasheetExample)
    }

    @Test func startChecksTheChipResetsReadsCalibrationAndConfigures() throws {
        let chip = SimulatedBMP280(pascals: 95_000, celsius: 12.5)
        let bmp = driver(chip)
        try bmp.start()
        #expect(bmp.chipID == 0x58)
        #expect(chip.resets == 1)
        #expect(bmp.calibration == .datasheetExample)
        #expect(chip.controlMeasurement == 0x57)
        #expect(chip.configuration == 0x28)
        let reading = try bmp.read()
        #expect(abs(reading.pascals - 95_000) < 0.2)
        #expect(abs(reading.celsius - 12.5) < 0.02)
    }

    @Test func aBME280IsAccepted() throws {
        let chip = SimulatedBMP280()
        chip.chipID = 0x60
        try driver(chip).start()
    }

    @Test func aWrongChipIDIsNamed() {
        let chip = SimulatedBMP280()
        chip.inject(.wrongChipID(0x55))
        #expect(throws: BMP280Error.wrongChip(id: 0x55)) { try driver(chip).start() }
        #expect(BMP280Error.wrongChip(id: 0x55).description.contains("0x55"))
    }

    @Test func aFewFailedTransfersAreRetriedWithBackoff() throws {
        let chip = SimulatedBMP280(pascals: 100_000)
        var waits: [Double] = []
        let bmp = BMP280(bus: chip, sleep: { waits.append($0) })
        try bmp.start()
        waits.removeAll()
        chip.inject(.failTransfers(2))
        let reading = try bmp.read()
        #expect(abs(reading.pascals - 100_000) < 0.2)
        #expect(waits.prefix(2) == [0.01, 0.02])
        #expect(chip.resets == 1)  // no re-init was needed
    }

    @Test func persistentTransferFailuresLeadToAFullReinitialisation() throws {
        let chip = SimulatedBMP280(pascals: 100_000)
        let bmp = driver(chip)
        try bmp.start()
        chip.inject(.failTransfers(3))
        _ = try bmp.read()
        #expect(chip.resets == 2)
    }

    @Test func aBusThatStaysDeadIsReported() throws {
        let chip = SimulatedBMP280()
        let bmp = driver(chip)
        try bmp.start()
        chip.inject(.failTransfers(1000))
        #expect(throws: BMP280Error.self) { try bmp.read() }
    }

    @Test func aStuckMeasuringBitIsAFault() throws {
        let chip = SimulatedBMP280()
        let bmp = driver(chip)
        try bmp.start()
        chip.inject(.stuckMeasuring)
        #expect(throws: BMP280Error.stuckMeasuring) { try bmp.read() }
        chip.clearFaults()
        #expect(throws: Never.self) { try bmp.read() }
    }

    @Test func theSkippedValueIsNotAPressure() throws {
        let chip = SimulatedBMP280()
        let bmp = driver(chip)
        try bmp.start()
        chip.inject(.skippedValue)
        #expect(throws: BMP280Error.skippedMeasurement) { try bmp.read() }
    }

    @Test func readingsOutOfRangeAreRejected() throws {
        let chip = SimulatedBMP280()
        let bmp = driver(chip)
        try bmp.start()
        chip.inject(.outOfRange)
        #expect(throws: BMP280Error.self) { try bmp.read() }
    }

    @Test func theDivisionGuardHolds() throws {
        var calibration = BMP280Calibration.datasheetExample
        calibration.p1 = 0  // makes var1 == 0
        #expect(calibration.pressure(adc: 415_148, tFine: 128_422) == nil)
        let chip = SimulatedBMP280(calibration: calibration)
        let bmp = driver(chip)
        try bmp.start()
        #expect(throws: BMP280Error.divisionGuard) { try bmp.read() }
    }
}
