import RunWayCore

/// A flight's pause, as `pauses` holds it (schema 4; a flight stored before has none here).
struct PauseRow: FlightChildRow {
    var pause: PauseInterval

    enum Column: FlightChildColumn {
        case start, end, reason

        static let spelled: [Self: String] = [
            .start: "start_elapsed_s", .end: "end_elapsed_s", .reason: "reason",
        ]
    }

    static let statements = FlightChildTable<Column>("pauses", kind: "pause", order: .start)

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .start: .real(pause.start)
        case .end: .real(pause.end)
        case .reason: .text(pause.reason.rawValue)
        }
    }

    /// A reason this build does not know reads as `manual`.
    static func decode(_ r: LogbookRow) throws(StoreError) -> PauseInterval? {
        PauseInterval(
            start: try r.number(Column.start, in: LogbookRow.duration),
            end: try r.number(Column.end, in: LogbookRow.duration),
            reason: r[Column.reason].string.flatMap(PauseReason.init(rawValue:)) ?? .manual)
    }
}
