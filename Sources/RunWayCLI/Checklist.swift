import RunWayCore
import RunWayHardware

/// The takeoff checklist (SPEC "Takeoff and the checklist", seed 004): each line OK or not with
/// its reason, and a note where OK means less than it seems. Pure: what was read goes in, the
/// lines come out; `ChecklistCommand` does the reading.
struct Checklist: Sendable {
    enum Verdict: String, Sendable {
        case ok = "OK"
        case notOK = "NOT OK"
        /// Nothing to judge by (no battery gauge, too little barograph): said, never failed on.
        case unknown = "--"
        /// Worth knowing before a run, not a reason to stay home (pressure falling fast).
        case warning = "WARN"
    }

    struct Item: Sendable, Equatable {
        var name: String
        var verdict: Verdict
        var required: Bool
        var detail: String
        var note: String?
    }

    /// What the GPS said.
    enum GPS: Sendable {
        /// runwayd's signal word (it reads gpsd all the time).
        case daemon(SignalQuality)
        /// A fix from gpsd, with its horizontal accuracy in metres.
        case fix(accuracy: Double?)
        /// gpsd answered without a fix in the time waited.
        case noFix(waited: Double)
        case unreachable(String)
    }

    enum Barometer: Sendable {
        case chip(id: UInt8, pascals: Double)
        case daemon(answering: Bool, pascals: Double?)
        case failed(String)
    }

    var gps: GPS
    var barometer: Barometer
    var weather: Barograph.Reading?
    /// Why there is no weather reading, when there is none.
    var weatherMissing = "runwayd keeps the barograph; it needs an hour of readings on the board"
    var battery: BatteryStatus
    /// Free bytes where the logbook lives, or why it is unknown.
    var storage: Result<Double, CLIError>
    /// Buttons pressed when asked (nil: not checked).
    var buttons: [(role: String, pressed: Bool)]?
    /// The buzzer heard (nil: not checked).
    var buzzer: Bool?

    /// Logbook growth per hour of recording: runway-bench storage measures 0.76 MiB at 1 Hz GPS;
    /// 2 MiB leaves room for a 10 Hz receiver and the raw log's slack.
    static let bytesPerHour = 2.0 * 1_048_576
    /// Less recording time than this left is not OK: a long run must fit.
    static let hoursNeeded = 6.0

    /// The VOICE line (nil: not checked, as in tests of the other lines).
    var voice: ChecklistVoice?
    /// The HEART RATE and CADENCE lines (nil: not checked).
    var sensors: ChecklistSensors?

    var items: [Item] {
        [gpsItem, barometerItem, weatherItem, batteryItem, storageItem, buttonsItem, buzzerItem]
            + (voice.map { [$0.item] } ?? []) + (sensors?.items ?? [])
    }

    /// True when every required line is OK.
    var ready: Bool { !items.contains { $0.required && $0.verdict == .notOK } }

    var gpsItem: Item {
        let note = "a fix's accuracy, not the sky ahead: tall buildings and trees can still cost the lock"
        switch gps {
        case .daemon(let signal):
            return Item(
                name: "GPS SIGNAL", verdict: signal.passesChecklist ? .ok : .notOK, required: true,
                detail: "\(signal.rawValue) (runwayd)", note: signal.passesChecklist ? note : nil)
        case .fix(let accuracy):
            let signal = SignalQuality(accuracy: accuracy)
            let metres = accuracy.map { " ±\(Int($0.rounded())) m" } ?? ""
            return Item(
                name: "GPS SIGNAL", verdict: signal.passesChecklist ? .ok : .notOK, required: true,
                detail: "\(signal.rawValue)\(metres)",
                note: signal.passesChecklist
                    ? note : "wait in the open for the lock, or start: the fix comes as you go")
        case .noFix(let waited):
            return Item(
                name: "GPS SIGNAL", verdict: .notOK, required: true,
                detail: "NO SIGNAL: no fix from gpsd in \(Int(waited)) s",
                note: "go outside, with a view of the sky")
        case .unreachable(let why):
            return Item(name: "GPS SIGNAL", verdict: .notOK, required: true, detail: "NO SIGNAL: \(why)")
        }
    }

    var barometerItem: Item {
        let note = "answers and reads air pressure; a chip that drifts slowly still passes"
        switch barometer {
        case .chip(let id, let pascals):
            let name = id == 0x60 ? "BME280" : "BMP280"
            let plausible = (87_000...108_500).contains(pascals)
            return Item(
                name: "BAROMETER", verdict: plausible ? .ok : .notOK, required: true,
                detail: "\(name) (chip 0x\(String(id, radix: 16))), \(hPa(pascals))"
                    + (plausible ? "" : ": no air pressure a runner stands in (870–1085 hPa)"),
                note: plausible ? note : nil)
        case .daemon(let answering, let pascals):
            guard answering else {
                return Item(
                    name: "BAROMETER", verdict: .notOK, required: true,
                    detail: "runwayd lost it: check the wiring (runway baro says more with runwayd stopped)")
            }
            return Item(
                name: "BAROMETER", verdict: .ok, required: true,
                detail: "answering runwayd" + (pascals.map { ", \(hPa($0))" } ?? ""), note: note)
        case .failed(let why):
            return Item(name: "BAROMETER", verdict: .notOK, required: true, detail: why)
        }
    }

    var weatherItem: Item {
        guard let weather else {
            return Item(
                name: "WEATHER", verdict: .unknown, required: false, detail: "no tendency: \(weatherMissing)")
        }
        let change = String(format: "%+.1f hPa in 3 h", weather.changePer3h / 100)
        let span = weather.span >= 3 * 3600 ? "" : " (from \(Int(weather.span / 60)) min of readings)"
        let verdict: Verdict = weather.tendency == .fallingFast ? .warning : .ok
        return Item(
            name: "WEATHER", verdict: verdict, required: false,
            detail: "\(weather.tendency.rawValue): \(change)\(span)"
                + (verdict == .warning ? ": weather is coming; take a layer" : ""),
            note:
                "the pressure's trend, not a forecast; a board carried 10 m up or down reads 1.2 hPa of weather"
        )
    }

    var batteryItem: Item {
        guard let capacity = battery.capacity else {
            return Item(
                name: "BATTERY", verdict: .unknown, required: false,
                detail: "no battery gauge on this board", note: "check the power bank's own lights")
        }
        let ok = capacity >= 20
        return Item(
            name: "BATTERY", verdict: ok ? .ok : .notOK, required: true,
            detail: battery.text + (ok ? "" : ": under 20 %"),
            note: ok ? "the gauge's estimate; cold weather empties a battery faster" : nil)
    }

    var storageItem: Item {
        switch storage {
        case .failure(let error):
            return Item(name: "STORAGE", verdict: .notOK, required: true, detail: error.message)
        case .success(let free):
            let hours = free / Self.bytesPerHour
            let ok = hours >= Self.hoursNeeded
            let left = hours >= 1000 ? "over 1000" : "about \(Int(hours))"
            return Item(
                name: "STORAGE", verdict: ok ? .ok : .notOK, required: true,
                detail: "\(gigabytes(free)) free: \(left) hours of recording"
                    + (ok ? "" : ": a long run needs \(Int(Self.hoursNeeded))"),
                note: ok ? "free space, not the card's health: a worn card can fail with room left" : nil)
        }
    }

    var buttonsItem: Item {
        guard let buttons else {
            return Item(
                name: "BUTTONS", verdict: .unknown, required: false, detail: "not checked (--interactive)")
        }
        let missed = buttons.filter { !$0.pressed }.map { $0.role.uppercased() }
        return Item(
            name: "BUTTONS", verdict: missed.isEmpty ? .ok : .notOK, required: true,
            detail: missed.isEmpty
                ? "\(buttons.map { $0.role.uppercased() }.joined(separator: ", ")) pressed"
                : "no press heard from \(missed.joined(separator: ", "))")
    }

    var buzzerItem: Item {
        guard let buzzer else {
            return Item(
                name: "BUZZER", verdict: .unknown, required: false, detail: "not checked (--interactive)")
        }
        return Item(
            name: "BUZZER", verdict: buzzer ? .ok : .notOK, required: true,
            detail: buzzer ? "every pattern heard" : "not heard: the callouts would be silent")
    }

    func hPa(_ pascals: Double) -> String { String(format: "%.1f hPa", pascals / 100) }

    func gigabytes(_ bytes: Double) -> String {
        bytes >= 1e9 ? String(format: "%.1f GB", bytes / 1e9) : String(format: "%.0f MB", bytes / 1e6)
    }

    /// The checklist as the runner reads it.
    func text(source: String) -> String {
        var lines = ["TAKEOFF CHECKLIST (\(source))"]
        for item in items {
            lines.append(
                "  " + FlightReport.padRight(item.name, 12) + FlightReport.padRight(item.verdict.rawValue, 8)
                    + item.detail)
            if let note = item.note { lines.append(String(repeating: " ", count: 22) + "note: " + note) }
        }
        let failed = items.filter { $0.required && $0.verdict == .notOK }.map(\.name)
        lines.append(ready ? "READY FOR TAKEOFF" : "NOT READY: \(failed.joined(separator: ", "))")
        return lines.joined(separator: "\n")
    }

    func json(source: String) -> JSONValue {
        .object([
            ("source", .string(source)),
            ("ready", .bool(ready)),
            (
                "items",
                .array(
                    items.map { item in
                        .object([
                            ("name", .string(item.name)),
                            ("ok", item.verdict == .unknown ? .null : .bool(item.verdict != .notOK)),
                            ("verdict", .string(item.verdict.rawValue)), ("required", .bool(item.required)),
                            ("detail", .string(item.detail)),
                            ("note", item.note.map { .string($0) } ?? .null),
                        ])
                    })
            ),
        ])
    }
}
