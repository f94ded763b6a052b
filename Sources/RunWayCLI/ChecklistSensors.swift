import RunWayControl

/// The takeoff checklist's HEART RATE and CADENCE lines, from runwayd's status (its `sensors`
/// array: runwayd owns the radio). For each kind: `--` with the reason when no sensor of it is
/// paired (or Bluetooth is off, or runwayd is not there to ask); NOT OK when one is paired and
/// not connected, has said nothing for `ControlSensor.staleAfter` (runwayd sends no stale
/// value), says nothing plausible yet, or (a strap) has no skin contact; OK with the
/// value and the battery. A sensor battery at or under 10 % is WARN, not NOT OK: a strap's coin
/// cell at 10 % still has hours of running in it (a CR2032 lasts a few hundred hours in a strap),
/// so it asks for a new cell after the run, not for staying home.
enum ChecklistSensors: Sendable, Equatable {
    /// runwayd's paired sensors, and its radio's state (nil: a runwayd that does not say).
    case daemon([ControlSensor], bluetooth: ControlBluetooth? = nil)
    /// `bluetooth.enabled` is false.
    case disabled
    /// Nothing to judge by, and why (runwayd not running, no radio, the simulated board).
    case unknown(String)

    static let lowBattery = 10

    var items: [Checklist.Item] { [item(.heartRate), item(.cadence)] }

    func item(_ kind: ControlSensor.Kind) -> Checklist.Item {
        let name = kind == .heartRate ? "HEART RATE" : "CADENCE"
        let what = kind == .heartRate ? "strap" : "footpod"
        func unknown(_ detail: String) -> Checklist.Item {
            Checklist.Item(name: name, verdict: .unknown, required: false, detail: detail)
        }
        let sensors: [ControlSensor]
        let bluetooth: ControlBluetooth?
        switch self {
        case .disabled: return unknown("Bluetooth off in the configuration")
        case .unknown(let why): return unknown(why)
        case .daemon(let list, let radio): (sensors, bluetooth) = (list, radio)
        }
        guard let sensor = sensors.first(where: { $0.kinds.contains(kind) }) else {
            return unknown("no \(what) paired: runway sensors pair")
        }
        func notOK(_ why: String) -> Checklist.Item {
            Checklist.Item(name: name, verdict: .notOK, required: true, detail: "\(sensor.label): \(why)")
        }
        // The adapter or BlueZ, not the strap, is what to fix.
        if let bluetooth, bluetooth.state != .ready, sensor.connected != true {
            return notOK(bluetooth.message ?? "Bluetooth is \(bluetooth.state.rawValue)")
        }
        guard sensor.connected == true else {
            return notOK(
                "paired, not connected: "
                    + (kind == .heartRate
                        ? "wet the strap's electrodes, put it on, and keep it near"
                        : "take a few steps to wake it"))
        }
        if sensor.heartRate == nil, sensor.cadence == nil, let age = sensor.lastSeenAge,
            age > ControlSensor.staleAfter
        {
            return notOK("no reading for \(Int(age.rounded())) s: is it awake and near?")
        }
        let value: String
        if kind == .heartRate {
            if sensor.contact == false {
                return notOK("no skin contact: wet the electrodes and tighten the strap")
            }
            guard let bpm = sensor.heartRate else { return notOK("connected, no plausible heart rate yet") }
            value = "\(Int(bpm.rounded())) bpm"
        } else {
            guard let cadence = sensor.cadence else {
                return notOK("connected, no reading yet: take a few steps")
            }
            value = "\(Int(cadence.rounded())) steps/min"
        }
        let battery = sensor.batteryPercent.map { "battery \($0) %" } ?? "battery --"
        if let percent = sensor.batteryPercent, percent <= Self.lowBattery {
            return Checklist.Item(
                name: name, verdict: .warning, required: true,
                detail: "\(sensor.label): \(value), \(battery): replace the \(what)'s battery after this run")
        }
        return Checklist.Item(
            name: name, verdict: .ok, required: true, detail: "\(sensor.label): \(value), \(battery)",
            note: kind == .heartRate ? "a value now; a strap that slips mid-run loses contact" : nil)
    }
}
