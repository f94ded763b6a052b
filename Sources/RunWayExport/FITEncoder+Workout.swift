import RunWayCore

/// The workout a flight flew, as a Garmin watch writes it into the activity file: a `workout`
/// message (26: the sport, how many steps, a name) and a `workout_step` (27) per step, in order
/// — its length as `duration_type` time or distance with its value (ms, cm), its target as
/// `target_type` speed (the pace band as m/s × 1000, slow edge low) or heart rate (bpm + 100,
/// FIT's "custom" range), a heart-rate band beside a pace as the secondary target, and its
/// `intensity`. Each lap names its step (`wkt_step_index`).
extension FITEncoder {
    private typealias F = FITWriter.Field
    private static let workout = FITWriter.Definition(
        local: 9, global: 26,
        fields: [F(4, .enumeration), F(6, .uint16), F(8, .string, size: 32)])
    private static let workoutStep = FITWriter.Definition(
        local: 10, global: 27,
        fields: [
            F(254, .uint16), F(0, .string, size: 16), F(1, .enumeration), F(2, .uint32), F(3, .enumeration),
            F(4, .uint32), F(5, .uint32), F(6, .uint32), F(7, .enumeration), F(19, .enumeration),
            F(20, .uint32), F(21, .uint32), F(22, .uint32),
        ])

    /// FIT's `wkt_step_duration`.
    private enum Duration: Int64 {
        case time = 0
        case distance = 1
    }

    /// FIT's `wkt_step_target`.
    private enum Target: Int64 {
        case speed = 0
        case heartRate = 1
        case open = 2
    }

    /// FIT's custom heart-rate targets are bpm + 100 (0–100 are percentages of the maximum).
    private static let heartRateOffset = 100.0

    static func writeWorkout(_ w: inout FITWriter, _ activity: ExportActivity) {
        guard let workout = activity.workout, !workout.steps.isEmpty else { return }
        w.write(
            Self.workout,
            [
                .number(running), .number(Int64(workout.steps.count)),
                .text(String(workout.spec.prefix(31))),
            ])
        for (index, step) in workout.steps.enumerated() {
            var values: [FITWriter.Value] = [.number(Int64(index)), .text(step.kind.rawValue)]
            switch step.length {
            case .duration(let seconds):
                values += [.number(Duration.time.rawValue), FITWriter.scaled(seconds, 1000)]
            case .distance(let metres):
                values += [.number(Duration.distance.rawValue), FITWriter.scaled(metres, 100)]
            }
            let heart = heartRateTarget(step.heartRate)
            if let pace = step.pace {
                values += [
                    .number(Target.speed.rawValue), .number(0),
                    FITWriter.scaled(1000 / pace.slowestAllowedPace, 1000),
                    FITWriter.scaled(1000 / max(1, pace.fastestAllowedPace), 1000),
                ]
            } else if let heart {
                values += [.number(Target.heartRate.rawValue), .number(0), heart.low, heart.high]
            } else {
                values += [.number(Target.open.rawValue), .none, .none, .none]
            }
            values.append(.number(ExportActivity.Intensity(step.kind).rawValue))
            if step.pace != nil, let heart {
                values += [.number(Target.heartRate.rawValue), .number(0), heart.low, heart.high]
            } else {
                values += [.none, .none, .none, .none]
            }
            w.write(workoutStep, values)
        }
    }

    private static func heartRateTarget(_ band: Mission.HeartRateBand?) -> (
        low: FITWriter.Value, high: FITWriter.Value
    )? {
        band.map {
            (FITWriter.scaled($0.low + heartRateOffset, 1), FITWriter.scaled($0.high + heartRateOffset, 1))
        }
    }
}
