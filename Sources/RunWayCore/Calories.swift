/// Calories burned on a run (SPEC: the summary's calories come from the body mass in the
/// configuration), from the ACSM running equation: oxygen cost 0.2 ml/kg per metre run,
/// 0.9 ml/kg per metre climbed, 3.5 ml/kg per minute at rest, and about 5 kcal per litre of
/// oxygen. Moving time only: standing at a light is not running.
public enum Calories {
    /// Kilocalories for `bodyMass` kilograms; nil without a plausible body mass (20–300 kg).
    public static func kilocalories(
        bodyMass: Double, distance: Double, elevationGain: Double, movingTime: Double
    ) -> Double? {
        guard (20...300).contains(bodyMass) else { return nil }
        let oxygen = 0.2 * max(distance, 0) + 0.9 * max(elevationGain, 0) + 3.5 * max(movingTime, 0) / 60
        return bodyMass * oxygen / 1000 * 5
    }
}

extension Flight {
    public func kilocalories(bodyMass: Double) -> Double? {
        Calories.kilocalories(
            bodyMass: bodyMass, distance: distance, elevationGain: elevationGain, movingTime: movingTime)
    }
}
