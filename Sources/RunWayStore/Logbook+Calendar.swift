import RunWayCore

/// One day of the Flight Calendar.
public struct CalendarDay: Sendable, Equatable {
    public var day: Int
    public var distance: Double
    public var flights: [Int64]

    public var runCount: Int { flights.count }
}

extension Logbook {
    /// A month of the Flight Calendar: per day with flights, total distance and the flights, in
    /// the runner's local time (`utcOffset` seconds east of UTC). Too-short and superseded
    /// flights are not runs.
    public func calendar(year: Int, month: Int, utcOffset: Int = 0) throws(StoreError) -> [CalendarDay] {
        let first = UTCTime.parse("\(UTCTime.pad(year, 4))-\(UTCTime.pad(month, 2))-01T00:00:00Z") ?? 0
        let next =
            month == 12
            ? UTCTime.parse("\(UTCTime.pad(year + 1, 4))-01-01T00:00:00Z") ?? 0
            : UTCTime.parse("\(UTCTime.pad(year, 4))-\(UTCTime.pad(month + 1, 2))-01T00:00:00Z") ?? 0
        var days: [Int: CalendarDay] = [:]
        for entry in try entries().reversed() where entry.status == .finished || entry.status == .recovered {
            let local = entry.startTime + Double(utcOffset)
            guard local >= first, local < next else { continue }
            let day = Int((local - first) / 86_400) + 1
            days[day, default: CalendarDay(day: day, distance: 0, flights: [])].distance += entry.distance
            days[day]?.flights.append(entry.id)
        }
        return days.values.sorted { $0.day < $1.day }
    }
}
