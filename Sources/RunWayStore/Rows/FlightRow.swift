import RunWayCore

/// A flight's summary, as `flights` holds it: opened at ROTATE (its start, mission and source),
/// completed at touchdown (the landed flight's derived summary).
struct FlightRow {
    enum Column: TableColumn {
        case id, status, targetPace, allowedDeviation, targetDistance, startTime, endTime, distance, elapsed,
            movingTime, droppedTail, averageHeartRate, averageCadence, source, replaces, engineVersion,
            elevationSource, elevationLoss, altitudeMinimum, altitudeMaximum, maxHeartRate, zone1Time,
            zone2Time, zone3Time, zone4Time, zone5Time, zoneMethod, zoneMaximum, zoneResting, zone1Fraction,
            zone2Fraction, zone3Fraction, zone4Fraction, zone5Fraction, targetHeartRateLow,
            targetHeartRateHigh,
            targetZone, targetDuration, distanceMethod, liveDistance, smoothingNote, landing, workout, runName

        /// Moving seconds in zones 1…5, in order.
        static let zoneTimes: [Self] = [.zone1Time, .zone2Time, .zone3Time, .zone4Time, .zone5Time]
        /// The lower edge of zones 1…5 as fractions, in order.
        static let zoneFractions: [Self] = [
            .zone1Fraction, .zone2Fraction, .zone3Fraction, .zone4Fraction, .zone5Fraction,
        ]

        static let spelled: [Self: String] = [
            .id: "id", .status: "status", .targetPace: "target_pace", .allowedDeviation: "allowed_deviation",
            .targetDistance: "target_distance", .startTime: "start_time", .endTime: "end_time",
            .distance: "distance_m", .elapsed: "elapsed_s", .movingTime: "moving_s",
            .droppedTail: "dropped_tail_m", .averageHeartRate: "avg_heart_rate",
            .averageCadence: "avg_cadence", .source: "source", .replaces: "replaces",
            .engineVersion: "engine_version", .elevationSource: "elevation_source",
            .elevationLoss: "elevation_loss_m", .altitudeMinimum: "altitude_min_m",
            .altitudeMaximum: "altitude_max_m", .maxHeartRate: "max_heart_rate", .zone1Time: "zone_1_s",
            .zone2Time: "zone_2_s", .zone3Time: "zone_3_s", .zone4Time: "zone_4_s", .zone5Time: "zone_5_s",
            .zoneMethod: "hr_zone_method", .zoneMaximum: "hr_zone_max", .zoneResting: "hr_zone_resting",
            .zone1Fraction: "hr_zone_1_fraction", .zone2Fraction: "hr_zone_2_fraction",
            .zone3Fraction: "hr_zone_3_fraction", .zone4Fraction: "hr_zone_4_fraction",
            .zone5Fraction: "hr_zone_5_fraction",
            .targetHeartRateLow: "target_hr_low",
            .targetHeartRateHigh: "target_hr_high", .targetZone: "target_zone",
            .targetDuration: "target_duration_s", .distanceMethod: "distance_method",
            .liveDistance: "live_distance_m", .smoothingNote: "smoothing_note", .landing: "landed_by",
            .workout: "workout", .runName: "run_name",
        ]
        /// A flight's mission, in every statement that writes or reads it.
        static let mission: [Self] = [
            .targetPace, .allowedDeviation, .targetDistance, .targetHeartRateLow, .targetHeartRateHigh,
            .targetZone, .targetDuration, .workout, .runName,
        ]
    }

    /// Nil until SQLite numbers the row.
    var id: Int64? = nil
    var status: LogbookStatus
    var startTime: Double
    var mission: Mission?
    /// The workout flown; with one, `mission` is nil.
    var workout: Workout? = nil
    /// The configured run chosen, by name.
    var runName: String? = nil
    /// `live`, `demo`, `fly <file>`, `reprocess of <id>`, …
    var source: String = "live"
    /// The flight this one was reprocessed from.
    var replaces: Int64? = nil
    /// The landed flight whose summary touchdown writes (nil at ROTATE: none yet).
    var landed: Flight? = nil
    /// The engine whose rules computed the derived data: this build's.
    var engineVersion = Schema.engineVersion

    static let table = "flights"
    /// What a flight's row is, in words, for the damage said about it.
    static let kind = "summary"

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .id: id.map { .integer($0) } ?? .null
        case .status: .text(status.rawValue)
        case .targetPace: Logbook.value(mission?.targetPace)
        case .allowedDeviation: Logbook.value(mission?.allowedDeviation)
        case .targetDistance: Logbook.value(mission?.targetDistance)
        case .startTime: .real(startTime)
        case .endTime: Logbook.value(landed?.endTime)
        case .distance: Logbook.value(landed?.distance)
        case .elapsed: Logbook.value(landed?.elapsed)
        case .movingTime: Logbook.value(landed?.movingTime)
        case .droppedTail: Logbook.value(landed?.droppedTail)
        case .averageHeartRate: Logbook.value(landed?.averageHeartRate)
        case .averageCadence: Logbook.value(landed?.averageCadence)
        case .source: .text(source)
        case .replaces: replaces.map { .integer($0) } ?? .null
        case .engineVersion: .integer(Int64(engineVersion))
        case .elevationSource: landed?.elevation.map { .text($0.source.rawValue) } ?? .null
        case .elevationLoss: Logbook.value(landed?.elevation?.loss)
        case .altitudeMinimum: Logbook.value(landed?.elevation?.minimum)
        case .altitudeMaximum: Logbook.value(landed?.elevation?.maximum)
        case .targetHeartRateLow: Logbook.value(mission?.heartRate?.low)
        case .targetHeartRateHigh: Logbook.value(mission?.heartRate?.high)
        case .targetZone: mission?.heartRate?.zone.map { .integer(Int64($0)) } ?? .null
        case .targetDuration: Logbook.value(mission?.targetDuration)
        case .maxHeartRate: Logbook.value(landed?.maxHeartRate)
        case .distanceMethod: landed.map { .text($0.distanceMethod.rawValue) } ?? .null
        case .liveDistance: Logbook.value(landed?.liveDistance)
        case .smoothingNote: landed?.smoothingNote.map { .text($0) } ?? .null
        case .landing: landed.map { .text($0.landing.rawValue) } ?? .null
        case .workout: workout.map { .text($0.spec) } ?? .null
        case .runName: runName.map { .text($0) } ?? .null
        case .zone1Time, .zone2Time, .zone3Time, .zone4Time, .zone5Time:
            Logbook.value(Self.element(Column.zoneTimes, column, of: landed?.timeInZone))
        case .zoneMethod: landed?.heartRateZones.map { .text($0.method.rawValue) } ?? .null
        case .zoneMaximum: Logbook.value(landed?.heartRateZones?.maximum)
        case .zoneResting: Logbook.value(landed?.heartRateZones?.resting)
        case .zone1Fraction, .zone2Fraction, .zone3Fraction, .zone4Fraction, .zone5Fraction:
            Logbook.value(Self.element(Column.zoneFractions, column, of: landed?.heartRateZones?.fractions))
        }
    }

    /// The value of `values` that `column` holds, by its place in `columns` (nil past its end).
    static func element(_ columns: [Column], _ column: Column, of values: [Double]?) -> Double? {
        guard let values, let index = columns.firstIndex(of: column), values.indices.contains(index) else {
            return nil
        }
        return values[index]
    }

    /// The values `columns` bind, in their order.
    func values(_ columns: [Column]) -> [SQLValue] { columns.map(value) }

    // What is written when.

    /// At ROTATE: a new row (`landed` is nil).
    static let opened: [Column] = [.status, .startTime] + Column.mission + [.source]
    static let openSQL = SQL.insert(into: table, Column.names(opened))
    /// At touchdown: the row's summary, start and mission included, by its id (the last parameter).
    static let landing: [Column] =
        [.status, .startTime] + Column.mission + [
            .endTime, .distance, .elapsed, .movingTime, .droppedTail, .averageHeartRate, .averageCadence,
            .engineVersion, .elevationSource, .elevationLoss, .altitudeMinimum, .altitudeMaximum,
            .maxHeartRate,
        ] + Column.zoneTimes + [.zoneMethod, .zoneMaximum, .zoneResting] + Column.zoneFractions + [
            .distanceMethod, .liveDistance, .smoothingNote, .landing,
        ]
    static let landSQL = SQL.update(table, Column.names(landing), where: Column.id.name)

    /// A flight, and with it (`ON DELETE CASCADE`) everything recorded for it.
    static let deleteSQL = SQL.delete(from: table, where: Column.id.name)

    // What is read.

    /// One flight, whole, by its id.
    static let readSQL = SQL.select(Array(Column.names.dropFirst()), from: table, "WHERE \(Column.id) = ?")
    /// A flight's start, by its id.
    static let startSQL = SQL.select([Column.startTime.name], from: table, "WHERE \(Column.id) = ?")
    /// What a flight is flown again from: its start and mission (recovery, reprocess, resuming).
    /// What flying a flight again starts from: its start, its mission, and the heart-rate zones
    /// it was counted in (NULL until it landed).
    static let rebuildSQL = SQL.select(
        Column.names(
            [.startTime] + Column.mission + [.zoneMethod, .zoneMaximum, .zoneResting] + Column.zoneFractions),
        from: table, "WHERE \(Column.id) = ?")
    /// The name the listing gives a flight's newest reprocessed copy.
    static let supersededBy = "superseded_by"
    /// The logbook's lines, most recent first, each with the newest landed flight reprocessed from it.
    static let listSQL: String = {
        typealias C = Column
        let listed: [C] = [.id, .status, .startTime, .distance, .elapsed, .movingTime, .replaces]
        return "SELECT \(listed.map { "f.\($0)" }.joined(separator: ", ")), "
            + "(SELECT MAX(n.\(C.id)) FROM \(table) n WHERE n.\(C.replaces) = f.\(C.id) AND n.\(C.status) != 'flying') "
            + "AS \(supersededBy) FROM \(table) f ORDER BY f.\(C.startTime) DESC, f.\(C.id) DESC"
    }()
    /// What a salvage takes from each flight before flying it again: start, mission and source.
    static let salvageSQL = SQL.select(
        Column.names([.id, .status, .startTime] + Column.mission + [.source, .replaces]),
        from: table, "ORDER BY \(Column.id)")
    /// A landed flight that took off at the bound time, to the millisecond.
    static let sameRunSQL = SQL.select(
        [Column.id.name], from: table,
        "WHERE abs(\(Column.startTime) - ?) < 0.0005 AND \(Column.status) != 'flying' ORDER BY \(Column.id) LIMIT 1"
    )
}
