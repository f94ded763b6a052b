import RunWayCore
import RunWaySimulator
import Testing

/// Elevation told honestly: missing is missing, not 0; without a barometer the receiver's
/// altitude, said so; descent and the range beside the gain.
@Suite("Elevation: its source, missing as missing, descent and range")
struct ElevationSourceTests {
    @Test func noAltitudeSourceAtAllIsMissingNeverZero() throws {
        var computer = FlightComputer()
        computer.rotate()
        computer.run(speed: 3, from: 0, to: 600)  // fixes without altitude, no pressure
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(flight.elevation == nil)
        #expect(flight.knownElevationGain == nil)
        #expect(flight.samples.allSatisfy { $0.altitude == nil })
    }

    @Test func withoutABarometerTheReceiversAltitudeIsUsedAndSaidSo() throws {
        var scenario = Scenario.hilly10k
        scenario.barometer.present = false
        let run = SimulatedFlight.fly(scenario)
        let flight = try #require(run.flight)
        let elevation = try #require(flight.elevation)
        #expect(elevation.source == .gps)
        // GPS altitude wanders (σ 4 m, τ 2 min): within a quarter of the 114 m climbed.
        #expect(abs(flight.elevationGain - run.truth.elevationGain) < 0.25 * run.truth.elevationGain)
        #expect(flight.samples.contains { $0.altitude != nil })
        // With the barometer, the barometer.
        #expect(SimulatedFlight.fly(.hilly10k).flight?.elevation?.source == .barometer)
    }

    @Test func aClosedLoopDescendsWhatItClimbedBetweenItsLowestAndHighestPoint() throws {
        let run = SimulatedFlight.fly(.hilly10k)
        let flight = try #require(run.flight)
        let elevation = try #require(flight.elevation)
        let loss = try #require(elevation.loss)
        #expect(
            abs(loss - flight.elevationGain) < 0.05 * flight.elevationGain,
            "loss \(loss), gain \(flight.elevationGain)")
        // The course's lowest point is the start; its highest hill is 30 m.
        #expect(try #require(elevation.minimum) > -2)
        #expect(abs(try #require(elevation.maximum) - 30) < 2)
        // A flat run neither climbs nor descends.
        let flat = try #require(SimulatedFlight.fly(.flat5k).flight?.elevation)
        #expect(flat.loss == 0)
    }

    @Test func descentIsCountedAsClimbsAreWithTheSameHysteresis() {
        var gain = ElevationGain()
        var t = 0.0
        // 20 m up, 20 m down, with 0.5 m wobbles that count neither way.
        for z in Array(stride(from: 0.0, through: 20, by: 0.5))
            + Array(stride(from: 20.0, through: 0, by: -0.5))
        {
            gain.add(time: t, altitude: z + (Int(t) % 2 == 0 ? 0.25 : -0.25))
            t += 2
        }
        #expect(abs(gain.total - 20) < 1.5)
        #expect(abs(gain.loss - 20) < 1.5)
        #expect(gain.minimum! < 0.5 && gain.maximum! > 18)
    }
}
