/// A FIT activity file of one flight, as a Garmin watch writes one: file_id and device_info
/// with the product's name, release and serial, file_creator, the barometer (so services keep the
/// file's elevation), timer events — start, stop_all at every pause, start again after it — a
/// record every second of the per-second series (paused ones too, as a watch records with its
/// timer stopped), a lap per split, the session, its time in heart-rate zones and the activity;
/// every message in time order. Field numbers, types and scales are the FIT profile's.
public enum FITEncoder {
    /// Garmin's manufacturer id for development (unregistered) devices: RunWay has no id of its
    /// own (the README says what services make of that).
    static let manufacturer: Int64 = 255
    static let product: Int64 = 1

    // The local message types and their layouts.
    private typealias F = FITWriter.Field
    private static let fileID = FITWriter.Definition(
        local: 0, global: 0,
        fields: [
            F(0, .enumeration), F(1, .uint16), F(2, .uint16), F(3, .uint32z), F(4, .uint32),
            F(8, .string, size: 24),
        ])
    private static let fileCreator = FITWriter.Definition(local: 1, global: 49, fields: [F(0, .uint16)])
    private static let deviceInfo = FITWriter.Definition(
        local: 2, global: 23,
        fields: [
            F(253, .uint32), F(0, .uint8), F(1, .uint8), F(2, .uint16), F(3, .uint32z), F(4, .uint16),
            F(5, .uint16), F(25, .enumeration), F(19, .string, size: 160), F(27, .string, size: 24),
        ])
    private static let event = FITWriter.Definition(
        local: 3, global: 21,
        fields: [F(253, .uint32), F(0, .enumeration), F(1, .enumeration), F(3, .uint32), F(4, .uint8)])
    private static let record = FITWriter.Definition(
        local: 4, global: 20,
        fields: [
            F(253, .uint32), F(0, .sint32), F(1, .sint32), F(5, .uint32), F(78, .uint32), F(73, .uint32),
            F(3, .uint8), F(4, .uint8),
        ])
    private static let lap = FITWriter.Definition(
        local: 5, global: 19,
        fields: [
            F(254, .uint16), F(253, .uint32), F(0, .enumeration), F(1, .enumeration), F(2, .uint32),
            F(3, .sint32), F(4, .sint32), F(5, .sint32), F(6, .sint32), F(7, .uint32), F(8, .uint32),
            F(9, .uint32), F(11, .uint16), F(15, .uint8), F(16, .uint8), F(17, .uint8),
            F(21, .uint16), F(24, .enumeration), F(25, .enumeration), F(110, .uint32), F(23, .enumeration),
            F(71, .uint16),
        ])
    private static let session = FITWriter.Definition(
        local: 6, global: 18,
        fields: [
            F(254, .uint16), F(253, .uint32), F(0, .enumeration), F(1, .enumeration), F(2, .uint32),
            F(3, .sint32), F(4, .sint32), F(5, .enumeration), F(6, .enumeration), F(7, .uint32),
            F(8, .uint32), F(9, .uint32), F(11, .uint16), F(16, .uint8), F(17, .uint8), F(18, .uint8),
            F(22, .uint16), F(23, .uint16), F(25, .uint16), F(26, .uint16),
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
        _ activity: ExportActivity, device: DeviceIdentity = DeviceIdentity(), utcOffset: Int = 0
    ) -> [UInt8] {
        var w = FITWriter(reservingCapacity: activity.points.count * 40 + 4096)
        let start = FITWriter.Value.number(Int64(activity.wholeSecond(0) - FITWriter.epochOffset))
        let end = FITWriter.Value.number(
            Int64(activity.wholeSecond(activity.elapsed) - FITWriter.epochOffset))
        let serial = FITWriter.Value.number(Int64(device.serialNumber))
        w.write(
            fileID,
            [
                .number(activityFile), .number(manufacturer), .number(product), serial, start,
                .text(device.productName),
            ])
        w.write(fileCreator, [.number(Int64(device.softwareVersion))])
        w.write(
            deviceInfo,
            [
                start, .number(0), .none, .number(manufacturer), serial, .number(product),
                .number(Int64(device.softwareVersion)), .number(localSource),
                .text(activity.description.isEmpty ? device.productName : activity.description),
                .text(device.productName),
            ])
        if activity.elevationSource == .barometer, let reference = activity.altitudeReference {
            w.write(
                deviceInfo,
                [
                    start, .number(1), .number(barometerDevice), .none, .none, .none, .none,
                    .number(localSource),
                    .text(reference), .text("BMP280"),
                ])
        }
        writeWorkout(&w, activity)
        writeTimeline(&w, activity)
        writeSession(&w, activity, start: start, end: end)
        writeSessionTimeInZone(&w, activity, at: end)
        w.write(
            FITEncoder.activity,
            [
                end, FITWriter.scaled(activity.timerTime, 1000), .number(1), .number(0),
                .number(Event.activity.rawValue), .number(EventType.stop.rawValue),
                .number(
                    Int64(activity.wholeSecond(activity.elapsed) - FITWriter.epochOffset) + Int64(utcOffset)),
            ])
        return w.file()
    }

    /// One timer event, in whole GPS seconds.
    private struct TimerEvent {
        var time: Double
        var type: EventType
        var trigger: TimerTrigger
    }

    /// The timer's events: start at ROTATE, stop_all and start around each pause (as
    /// `timerIntervals` counts them), stop_all at TOUCHDOWN.
    private static func timerEvents(_ activity: ExportActivity) -> [TimerEvent] {
        var events: [TimerEvent] = []
        let intervals = activity.timerIntervals
        for (i, interval) in intervals.enumerated() {
            let pauseBefore = activity.pauses.last { activity.wholeSecond($0.end) == interval.lowerBound }
            // A stop is placed within a second or two of its pause (`timerIntervals`).
            let pauseAfter = activity.pauses.first {
                abs(activity.wholeSecond($0.start) - interval.upperBound) <= 2
            }
            let startTrigger: TimerTrigger = i == 0 || pauseBefore?.reason == .manual ? .manual : .auto
            let stopTrigger: TimerTrigger =
                i == intervals.count - 1 || pauseAfter?.reason == .manual ? .manual : .auto
            events.append(TimerEvent(time: interval.lowerBound, type: .start, trigger: startTrigger))
            events.append(TimerEvent(time: interval.upperBound, type: .stopAll, trigger: stopTrigger))
        }
        if events.isEmpty {
            events.append(TimerEvent(time: activity.wholeSecond(0), type: .start, trigger: .manual))
            events.append(
                TimerEvent(time: activity.wholeSecond(activity.elapsed), type: .stopAll, trigger: .manual))
        }
        return events
    }

    /// Records, timer events and laps merged in time order: before each record every event at
    /// or before its second, and every lap that ended before it; the rest at TOUCHDOWN.
    private static func writeTimeline(_ w: inout FITWriter, _ activity: ExportActivity) {
        let events = timerEvents(activity)
        var eventIndex = 0
        var lapIndex = 0
        let located = activity.points.filter { $0.coordinate != nil }
        var lapFirst = located.first
        var lastLocated = located.first
        func lapEnd(_ index: Int) -> Double {
            index == activity.laps.count - 1
                ? activity.wholeSecond(activity.elapsed)
                : activity.wholeSecond(activity.laps[index].endElapsed)
        }
        for point in activity.points {
            while eventIndex < events.count, events[eventIndex].time <= point.time {
                timer(&w, events[eventIndex])
                eventIndex += 1
            }
            while lapIndex < activity.laps.count - 1, lapEnd(lapIndex) < point.time {
                writeLap(&w, activity, lapIndex, from: lapFirst, to: lastLocated, end: lapEnd(lapIndex))
                lapFirst = lastLocated
                lapIndex += 1
            }
            writeRecord(&w, point)
            if point.coordinate != nil { lastLocated = point }
        }
        while eventIndex < events.count {
            timer(&w, events[eventIndex])
            eventIndex += 1
        }
        while lapIndex < activity.laps.count {
            writeLap(&w, activity, lapIndex, from: lapFirst, to: lastLocated, end: lapEnd(lapIndex))
            lapFirst = lastLocated
            lapIndex += 1
        }
    }

    private static func writeRecord(_ w: inout FITWriter, _ point: ExportActivity.Point) {
        w.write(
            record,
            [
                .number(Int64(point.time - FITWriter.epochOffset)),
                point.coordinate.map { FITWriter.semicircles($0.latitude) } ?? .none,
                point.coordinate.map { FITWriter.semicircles($0.longitude) } ?? .none,
                FITWriter.scaled(point.distance, 100), FITWriter.scaled(point.altitude, 5, offset: 500),
                FITWriter.scaled(point.speed, 1000), FITWriter.scaled(point.heartRate, 1),
                ExportActivity.strides(point.cadence).map { .number(Int64($0)) } ?? .none,
            ])
    }

    private static func writeSession(
        _ w: inout FITWriter, _ activity: ExportActivity, start: FITWriter.Value, end: FITWriter.Value
    ) {
        let first = activity.points.first { $0.coordinate != nil }?.coordinate
        let sessionZoneTimes: FITWriter.Value = zoneTimes(activity).map { .numbers($0) } ?? .none
        w.write(
            session,
            [
                .number(0), end, .number(Event.session.rawValue), .number(EventType.stop.rawValue), start,
                first.map { FITWriter.semicircles($0.latitude) } ?? .none,
                first.map { FITWriter.semicircles($0.longitude) } ?? .none,
                .number(running), .number(0), FITWriter.scaled(activity.elapsed, 1000),
                FITWriter.scaled(activity.timerTime, 1000), FITWriter.scaled(activity.distance, 100),
                FITWriter.scaled(activity.calories, 1), FITWriter.scaled(activity.averageHeartRate, 1),
                FITWriter.scaled(activity.maximumHeartRate, 1),
                ExportActivity.strides(activity.averageCadence).map { .number(Int64($0)) } ?? .none,
                activity.hasAltitude ? FITWriter.scaled(activity.ascent, 1) : .none,
                activity.hasAltitude ? FITWriter.scaled(activity.descent, 1) : .none, .number(0),
                .number(Int64(activity.laps.count)), .number(0),
                FITWriter.scaled(speed(activity.distance, activity.movingTime), 1000), sessionZoneTimes,
            ])
    }

    private enum TimerTrigger: Int64 {
        case manual = 0
        case auto = 1
    }

    private static func timer(_ w: inout FITWriter, _ event: TimerEvent) {
        w.write(
            FITEncoder.event,
            [
                .number(Int64(event.time - FITWriter.epochOffset)), .number(Event.timer.rawValue),
                .number(event.type.rawValue), .number(event.trigger.rawValue), .number(0),
            ])
    }

    /// A lap stamped at its end's whole second (`end`), its timer from the file's own intervals.
    private static func writeLap(
        _ w: inout FITWriter, _ activity: ExportActivity, _ index: Int, from first: ExportActivity.Point?,
        to last: ExportActivity.Point?, end: Double
    ) {
        let lap = activity.laps[index]
        let isLast = index == activity.laps.count - 1
        let start =
            index == 0 ? activity.wholeSecond(0) : activity.wholeSecond(activity.laps[index - 1].endElapsed)
        let values: [FITWriter.Value] = [
            .number(Int64(index)), .number(Int64(end - FITWriter.epochOffset)),
            .number(Event.lap.rawValue), .number(EventType.stop.rawValue),
            .number(Int64(start - FITWriter.epochOffset)),
            first?.coordinate.map { FITWriter.semicircles($0.latitude) } ?? .none,
            first?.coordinate.map { FITWriter.semicircles($0.longitude) } ?? .none,
            last?.coordinate.map { FITWriter.semicircles($0.latitude) } ?? .none,
            last?.coordinate.map { FITWriter.semicircles($0.longitude) } ?? .none,
            FITWriter.scaled(end - start, 1000), FITWriter.scaled(activity.timerTime(lap: index), 1000),
            FITWriter.scaled(lap.distance, 100),
            activity.lapCalories(index).map { .number(Int64($0)) } ?? .none,
            FITWriter.scaled(lap.heartRate, 1), FITWriter.scaled(lap.maximumHeartRate, 1),
            ExportActivity.strides(lap.cadence).map { .number(Int64($0)) } ?? .none,
            activity.hasAltitude ? FITWriter.scaled(lap.ascent, 1) : .none,
            // lap_trigger: a workout's or a pressed lap's own; a split's distance, the last the session's end
            .number(lap.trigger?.rawValue ?? (isLast ? 7 : 2)),
            .number(running), FITWriter.scaled(speed(lap.distance, lap.movingTime), 1000),
            .number(lap.intensity.rawValue), lap.workoutStep.map { .number(Int64($0)) } ?? .none,
        ]
        w.write(FITEncoder.lap, values)
    }

    static func speed(_ distance: Double, _ time: Double) -> Double? {
        time > 0 ? distance / time : nil
    }
}
