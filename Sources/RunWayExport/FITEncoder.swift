/// A FIT activity file of one flight, as a Garmin watch writes one: file_id, file_creator, the
/// device (and the barometer, so services keep the file's elevation), timer events — start,
/// stop_all at every pause, start again after it — a record per track point, a lap per split,
/// the session, its time in heart-rate zones and the activity. Field numbers, types and scales are
/// the FIT profile's.
public enum FITEncoder {
    /// Garmin's manufacturer id for development (unregistered) devices.
    static let manufacturer: Int64 = 255
    static let product: Int64 = 1

    // The local message types and their layouts.
    private typealias F = FITWriter.Field
    private static let fileID = FITWriter.Definition(
        local: 0, global: 0,
        fields: [F(0, .enumeration), F(1, .uint16), F(2, .uint16), F(4, .uint32), F(8, .string, size: 16)])
    private static let fileCreator = FITWriter.Definition(local: 1, global: 49, fields: [F(0, .uint16)])
    private static let deviceInfo = FITWriter.Definition(
        local: 2, global: 23,
        fields: [
            F(253, .uint32), F(0, .uint8), F(1, .uint8), F(2, .uint16), F(4, .uint16), F(5, .uint16),
            F(25, .enumeration), F(19, .string, size: 48), F(27, .string, size: 16),
        ])
    private static let event = FITWriter.Definition(
        local: 3, global: 21,
        fields: [F(253, .uint32), F(0, .enumeration), F(1, .enumeration), F(3, .uint32), F(4, .uint8)])
    private static let record = FITWriter.Definition(
        local: 4, global: 20,
        fields: [
            F(253, .uint32), F(0, .sint32), F(1, .sint32), F(5, .uint32), F(78, .uint32), F(73, .uint32),
            F(3, .uint8), F(4, .uint8), F(53, .uint8),
        ])
    private static let lap = FITWriter.Definition(
        local: 5, global: 19,
        fields: [
            F(254, .uint16), F(253, .uint32), F(0, .enumeration), F(1, .enumeration), F(2, .uint32),
            F(3, .sint32), F(4, .sint32), F(5, .sint32), F(6, .sint32), F(7, .uint32), F(8, .uint32),
            F(9, .uint32), F(11, .uint16), F(15, .uint8), F(16, .uint8), F(17, .uint8), F(80, .uint8),
            F(21, .uint16), F(24, .enumeration), F(25, .enumeration), F(110, .uint32), F(23, .enumeration),
            F(71, .uint16),
        ])
    private static let session = FITWriter.Definition(
        local: 6, global: 18,
        fields: [
            F(254, .uint16), F(253, .uint32), F(0, .enumeration), F(1, .enumeration), F(2, .uint32),
            F(3, .sint32), F(4, .sint32), F(5, .enumeration), F(6, .enumeration), F(7, .uint32),
            F(8, .uint32), F(9, .uint32), F(11, .uint16), F(16, .uint8), F(17, .uint8), F(18, .uint8),
            F(92, .uint8), F(22, .uint16), F(23, .uint16), F(25, .uint16), F(26, .uint16),
            F(28, .enumeration),
            F(124, .uint32), F(65, .uint32, size: 4 * zoneCount),
        ])
    private static let activity = FITWriter.Definition(
        local: 7, global: 34,
        fields: [
            F(253, .uint32), F(0, .uint32), F(1, .uint16), F(2, .enumeration), F(3, .enumeration),
            F(4, .enumeration), F(5, .uint32),
        ])

    // Profile enumerations used here.
    private enum Event: Int64 {
        case timer = 0
        case session = 8
        case lap = 9
        case activity = 26
    }
    private enum EventType: Int64 {
        case start = 0
        case stop = 1
        case stopAll = 4
    }
    static let running: Int64 = 1
    private static let activityFile: Int64 = 4
    private static let localSource: Int64 = 5
    private static let barometerDevice: Int64 = 4

    /// The file's bytes. `utcOffset` (seconds east of UTC) dates the activity's local timestamp.
    public static func encode(
        _ activity: ExportActivity, softwareVersion: Int = 1, utcOffset: Int = 0
    ) -> [UInt8] {
        var w = FITWriter(reservingCapacity: activity.points.count * 32 + 4096)
        let start = FITWriter.timestamp(activity.startTime)
        let end = FITWriter.timestamp(activity.endTime)
        w.write(
            fileID, [.number(activityFile), .number(manufacturer), .number(product), start, .text("RunWay")])
        w.write(fileCreator, [.number(Int64(softwareVersion))])
        w.write(
            deviceInfo,
            [
                start, .number(0), .none, .number(manufacturer), .number(product),
                .number(Int64(softwareVersion) * 100), .number(localSource), .text("RunWay Core"),
                .text("RunWay"),
            ])
        if activity.elevationSource == .barometer, let reference = activity.altitudeReference {
            w.write(
                deviceInfo,
                [
                    start, .number(1), .number(barometerDevice), .none, .none, .none, .number(localSource),
                    .text(reference), .text("BMP280"),
                ])
        }
        writeWorkout(&w, activity)
        timer(&w, at: activity.startTime, .start, trigger: .manual)

        // Records, pause events and lap ends in time order.
        var pauseIndex = 0
        var lapIndex = 0
        var lapStartPoint = activity.points.first
        var lastPoint = activity.points.first
        func closeLaps(through elapsed: Double) {
            while lapIndex < activity.laps.count - 1, activity.laps[lapIndex].endElapsed <= elapsed {
                writeLap(&w, activity, lapIndex, from: lapStartPoint, to: lastPoint)
                lapStartPoint = lastPoint
                lapIndex += 1
            }
        }
        func pausesUntil(_ elapsed: Double) {
            while pauseIndex < activity.pauses.count, activity.pauses[pauseIndex].start <= elapsed {
                let pause = activity.pauses[pauseIndex]
                let trigger: TimerTrigger = pause.reason == .manual ? .manual : .auto
                timer(&w, at: activity.startTime + pause.start, .stopAll, trigger: trigger)
                if pause.end < activity.elapsed {
                    timer(&w, at: activity.startTime + pause.end, .start, trigger: trigger)
                }
                pauseIndex += 1
            }
        }
        for point in activity.points {
            pausesUntil(point.elapsed)
            closeLaps(through: point.elapsed)
            w.write(
                record,
                [
                    FITWriter.timestamp(point.time), FITWriter.semicircles(point.coordinate.latitude),
                    FITWriter.semicircles(point.coordinate.longitude), FITWriter.scaled(point.distance, 100),
                    FITWriter.scaled(point.altitude, 5, offset: 500), FITWriter.scaled(point.speed, 1000),
                    FITWriter.scaled(point.heartRate, 1),
                ] + cadence(point.cadence))
            lastPoint = point
        }
        pausesUntil(activity.elapsed)
        closeLaps(through: activity.elapsed)
        timer(&w, at: activity.endTime, .stopAll, trigger: .manual)
        writeLap(&w, activity, activity.laps.count - 1, from: lapStartPoint, to: lastPoint)

        let sessionZoneTimes: FITWriter.Value = zoneTimes(activity).map { .numbers($0) } ?? .none
        w.write(
            session,
            [
                .number(0), end, .number(Event.session.rawValue), .number(EventType.stop.rawValue), start,
                activity.points.first.map { FITWriter.semicircles($0.coordinate.latitude) } ?? .none,
                activity.points.first.map { FITWriter.semicircles($0.coordinate.longitude) } ?? .none,
                .number(running), .number(0), FITWriter.scaled(activity.elapsed, 1000),
                FITWriter.scaled(activity.movingTime, 1000), FITWriter.scaled(activity.distance, 100),
                FITWriter.scaled(activity.calories, 1), FITWriter.scaled(activity.averageHeartRate, 1),
                FITWriter.scaled(activity.maximumHeartRate, 1),
            ] + cadence(activity.averageCadence) + [
                activity.hasAltitude ? FITWriter.scaled(activity.ascent, 1) : .none,
                activity.hasAltitude ? FITWriter.scaled(activity.descent, 1) : .none, .number(0),
                .number(Int64(activity.laps.count)), .number(0),
                FITWriter.scaled(speed(activity.distance, activity.movingTime), 1000), sessionZoneTimes,
            ])
        writeSessionTimeInZone(&w, activity, at: end)
        w.write(
            FITEncoder.activity,
            [
                end, FITWriter.scaled(activity.movingTime, 1000), .number(1), .number(0),
                .number(Event.activity.rawValue), .number(EventType.stop.rawValue),
                FITWriter.timestamp(activity.endTime + Double(utcOffset)),
            ])
        return w.file()
    }

    private enum TimerTrigger: Int64 {
        case manual = 0
        case auto = 1
    }

    private static func timer(_ w: inout FITWriter, at time: Double, _ type: EventType, trigger: TimerTrigger)
    {
        w.write(
            event,
            [
                FITWriter.timestamp(time), .number(Event.timer.rawValue), .number(type.rawValue),
                .number(trigger.rawValue), .number(0),
            ])
    }

    private static func writeLap(
        _ w: inout FITWriter, _ activity: ExportActivity, _ index: Int, from first: ExportActivity.Point?,
        to last: ExportActivity.Point?
    ) {
        let lap = activity.laps[index]
        let isLast = index == activity.laps.count - 1
        var values: [FITWriter.Value] = [
            .number(Int64(index)), FITWriter.timestamp(activity.startTime + lap.endElapsed),
            .number(Event.lap.rawValue), .number(EventType.stop.rawValue),
            FITWriter.timestamp(activity.startTime + lap.startElapsed),
            first.map { FITWriter.semicircles($0.coordinate.latitude) } ?? .none,
            first.map { FITWriter.semicircles($0.coordinate.longitude) } ?? .none,
            last.map { FITWriter.semicircles($0.coordinate.latitude) } ?? .none,
            last.map { FITWriter.semicircles($0.coordinate.longitude) } ?? .none,
            FITWriter.scaled(lap.elapsed, 1000), FITWriter.scaled(lap.movingTime, 1000),
            FITWriter.scaled(lap.distance, 100), FITWriter.scaled(activity.lapCalories(index), 1),
            FITWriter.scaled(lap.heartRate, 1), FITWriter.scaled(lap.maximumHeartRate, 1),
        ]
        values += cadence(lap.cadence)
        values += [
            activity.hasAltitude ? FITWriter.scaled(lap.ascent, 1) : .none,
            // lap_trigger: a workout's or a pressed lap's own; a split's distance, the last the session's end
            .number(lap.trigger?.rawValue ?? (isLast ? 7 : 2)),
            .number(running), FITWriter.scaled(speed(lap.distance, lap.movingTime), 1000),
            .number(lap.intensity.rawValue), lap.workoutStep.map { .number(Int64($0)) } ?? .none,
        ]
        w.write(FITEncoder.lap, values)
    }

    /// FIT's running cadence from steps per minute: whole strides per minute, then the fraction
    /// in 1/128 (`cadence`, `fractional_cadence`).
    private static func cadence(_ stepsPerMinute: Double?) -> [FITWriter.Value] {
        let strides = stepsPerMinute.map { $0 / 2 }
        return [
            strides.map { .number(Int64($0.rounded(.down))) } ?? .none,
            FITWriter.scaled(strides.map { $0 - $0.rounded(.down) }, 128),
        ]
    }

    static func speed(_ distance: Double, _ time: Double) -> Double? {
        time > 0 ? distance / time : nil
    }
}

extension ExportActivity {
    /// A lap's share of the session's calories, by distance (TCX requires a figure per lap; 0
    /// where no body mass is configured).
    public func lapCalories(_ index: Int) -> Double? {
        guard let calories, distance > 0 else { return nil }
        return calories * laps[index].distance / distance
    }
}
