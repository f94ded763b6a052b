import RunWayCore
import Testing

@Suite("Calories: ACSM running equation from body mass")
struct CaloriesTests {
    @Test func aFlat5kIn25MinutesFor70kg() throws {
        // 70 kg × (0.2 × 5000 + 3.5 × 25) ml/kg = 76.1 l of oxygen ≈ 380.6 kcal.
        let kcal = try #require(
            Calories.kilocalories(bodyMass: 70, distance: 5000, elevationGain: 0, movingTime: 1500))
        #expect(abs(kcal - 380.625) < 1e-9)
    }

    @Test func climbingCostsMoreAndMassScales() throws {
        let flat = try #require(
            Calories.kilocalories(bodyMass: 70, distance: 10_000, elevationGain: 0, movingTime: 3000))
        let hilly = try #require(
            Calories.kilocalories(bodyMass: 70, distance: 10_000, elevationGain: 100, movingTime: 3000))
        #expect(abs(hilly - flat - 31.5) < 1e-9)  // 70 × 0.9 × 100 ml ≈ 31.5 kcal
        let heavier = try #require(
            Calories.kilocalories(bodyMass: 140, distance: 10_000, elevationGain: 0, movingTime: 3000))
        #expect(abs(heavier - 2 * flat) < 1e-9)
    }

    @Test func noBodyMassNoCalories() {
        #expect(Calories.kilocalories(bodyMass: 0, distance: 5000, elevationGain: 0, movingTime: 1500) == nil)
        #expect(
            Calories.kilocalories(bodyMass: 700, distance: 5000, elevationGain: 0, movingTime: 1500) == nil)
    }
}
