import Foundation
import RunWayControl
import RunWayCore
import RunWayHardware
import RunWayTestSupport
import Testing

@testable import RunWayCLI

/// The takeoff checklist: each line judged with its reason, notes where OK means less than it
/// seems, and the exit status a script can trust.
@Suite("runway checklist")
struct ChecklistTests {
    /// A /sys/class/power_supply with one battery at `percent`.
    func powerSupply(_ percent: Int) throws -> String {
        let root = NSTemporaryDirectory() + "runway-ps-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root + "/BAT0", withIntermediateDirectories: true)
        try "Battery\n".write(toFile: root + "/BAT0/type", atomically: true, encoding: .utf8)
        try "\(percent)\n".write(toFile: root + "/BAT0/capacity", atomically: true, encoding: .utf8)
        try "Discharging\n".write(toFile: root + "/BAT0/status", atomically: true, encoding: .utf8)
        return root
    }

    @Test func onTheSimulatedBoardALowBatteryIsTheOneFailingLine() async throws {
        let logbook = NSTemporaryDirectory() + "checklist.sqlite"
        let low = try await RunWayBinary.run([
            "checklist", "--simulated", "--power-supply", try powerSupply(12), "--logbook", logbook,
        ])
        #expect(low.status == 1, "\(low.stderr)")
        let lines = low.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "TAKEOFF CHECKLIST (simulated board)")
        #expect(lines.contains("  BATTERY     NOT OK  12 % (Discharging): under 20 %"), "\(low.stdout)")
        #expect(lines.contains("  GPS SIGNAL  OK      STRONG ±4 m"))
        #expect(lines.contains("  BAROMETER   OK      BMP280 (chip 0x58), 1013.2 hPa"))
        #expect(
            lines.contains { $0.hasPrefix("  STORAGE     OK      ") && $0.contains("hours of recording") })
        #expect(lines.last == "NOT READY: BATTERY")
        // What an OK does not check is said beside it.
        #expect(low.stdout.contains("note: free space, not the card's health"))

        let charged = try await RunWayBinary.run([
            "checklist", "--simulated", "--power-supply", try powerSupply(80), "--logbook", logbook, "--json",
        ])
        #expect(charged.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(charged.stdout.utf8)) as? [String: Any])
        #expect(object["ready"] as? Bool == true)
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(
            items.map { $0["name"] as? String } == [
                "GPS SIGNAL", "BAROMETER", "WEATHER", "BATTERY", "STORAGE", "BUTTONS", "BUZZER", "VOICE",
                "HEART RATE",
                "CADENCE",
            ])
        // No sound card here and no voice configured: not a fault, the buzzer alone.
        let voice = try #require(items.first { $0["name"] as? String == "VOICE" })
        #expect(
            (voice["detail"] as? String)?.contains("the buzzer alone tells the runner") == true, "\(voice)")
        let battery = try #require(items.first { $0["name"] as? String == "BATTERY" })
        #expect(battery["ok"] as? Bool == true && battery["detail"] as? String == "80 % (Discharging)")
    }

    @Test func withoutRunwaydOrGpsdEachPartSaysWhatIsWrong() async throws {
        let result = try await RunWayBinary.run([
            "checklist", "--wait", "1", "--socket", "/nonexistent/control.sock", "--config",
            "/nonexistent.json",
            "--logbook", "/nonexistent/dir/logbook.sqlite",
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("(the board's parts; runwayd is not running)"))
        #expect(result.stdout.contains("GPS SIGNAL  NOT OK  NO SIGNAL"), "\(result.stdout)")
        #expect(result.stdout.contains("STORAGE     NOT OK  /nonexistent/dir cannot be read"))
    }

    /// Issue 27: gpsd refusing the connection at once still cost the whole wait (15 s).
    @Test func gpsdRefusingTheConnectionIsSaidAtOnce() async throws {
        let port = try GPSFake.freePort()  // nothing listens there
        let config = NSTemporaryDirectory() + "runway-checklist-\(UUID().uuidString.prefix(8)).json"
        try #"{"gpsd": "127.0.0.1:\#(port)"}"#.write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        // Timed on the thread that waits for the child: an await's resumption can wait minutes
        // for Swift's pool beside the heavy suites (306 s once, the child long finished).
        let (result, took) = try await offPool {
            let began = MonotonicInstant.now.seconds
            let result = try RunWayBinary.run([
                "checklist", "--wait", "600", "--socket", "/nonexistent/control.sock", "--config", config,
                "--logbook", "/nonexistent/dir/logbook.sqlite",
            ])
            return (result, MonotonicInstant.now.seconds - began)
        }
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("nothing accepts connections at 127.0.0.1:\(port)"), "\(result.stdout)")
        // Well under the wait, with room for a loaded machine (the whole checklist, its voice check
        // too, took 21 s and once 70 s beside the other suites); before, it took all 600 s.
        #expect(took < 300, "the checklist took \(took) s of its 600 s wait")
    }

    /// runwayd's status object, as its reply carries it.
    static func status(_ json: String) -> ControlStatus {
        ControlStatus(json: try! JSONValue.parse(Array(json.utf8)))!
    }

    @Test func runwaydsStatusIsReadLineByLine() {
        let status = Self.status(
            #"{"gps_signal": "WEAK", "barometer": "ok", "pressure_pa": 100110.0, "pressure_tendency": "falling fast", "#
                + #""pressure_change_pa_3h": -420.0, "barograph_s": 7200.0, "battery_percent": 64.0, "#
                + #""storage_free_bytes": 5e6}"#)
        let list = ChecklistCommand.fromDaemon(status, battery: BatteryStatus(), storage: .success(1e12))
        let items = Dictionary(uniqueKeysWithValues: list.items.map { ($0.name, $0) })
        #expect(items["GPS SIGNAL"]?.verdict == .notOK && items["GPS SIGNAL"]?.detail == "WEAK (runwayd)")
        #expect(
            items["BAROMETER"]?.verdict == .ok
                && items["BAROMETER"]?.detail == "answering runwayd, 1001.1 hPa")
        #expect(items["WEATHER"]?.verdict == .warning)
        #expect(
            items["WEATHER"]?.detail.hasPrefix("falling fast: -4.2 hPa in 3 h (from 120 min of readings)")
                == true)
        #expect(items["WEATHER"]?.required == false)
        #expect(items["BATTERY"]?.verdict == .ok && items["BATTERY"]?.detail == "64 %")
        // 5 MB is about 2 hours of recording: not enough for a long run.
        #expect(
            items["STORAGE"]?.verdict == .notOK && items["STORAGE"]?.detail.contains("about 2 hours") == true)
        #expect(!list.ready)
        let lost = ChecklistCommand.fromDaemon(
            Self.status(#"{"gps_signal": "STRONG", "barometer": "missing"}"#),
            battery: BatteryStatus(capacity: 90),
            storage: .success(1e12))
        #expect(lost.barometerItem.verdict == .notOK && lost.gpsItem.verdict == .ok)
        // No gauge is said, not failed on.
        #expect(lost.batteryItem.verdict == .ok)
        let noGauge = ChecklistCommand.fromDaemon(
            Self.status("{}"), battery: BatteryStatus(), storage: .success(1e12))
        #expect(noGauge.batteryItem.verdict == .unknown && noGauge.batteryItem.required == false)
    }

    @Test func aChipThatReadsNoAirPressureIsNotOK() {
        let list = Checklist(
            gps: .fix(accuracy: 12), barometer: .chip(id: 0x58, pascals: 20_000),
            battery: BatteryStatus(capacity: 50),
            storage: .success(1e10))
        #expect(list.gpsItem.verdict == .ok && list.gpsItem.detail == "GOOD ±12 m")
        #expect(list.barometerItem.verdict == .notOK)
    }
}

@Suite("runwayd's status carries the barometer and its barograph")
struct BarographStatusTests {
    @Test func theFieldsAreAddedNeverRenamed() {
        var barograph = Barograph()
        for minute in 0...120 { barograph.record(pascals: 101_300 - Double(minute), at: Double(minute) * 60) }
        let board = BoardStatus(
            barometer: .init(answering: true, pascals: barograph.latest, weather: barograph.reading(at: 7200))
        )
        let text = ControlReply.status(FlightComputer().pfd, board: board).rendered()
        #expect(
            text.contains(#""barometer":"ok""#) && text.contains(#""pressure_tendency":"falling""#), "\(text)"
        )
        #expect(
            text.contains(#""pressure_change_pa_3h":-180"#) && text.contains(#""barograph_s":7"#), "\(text)")
        #expect(text.contains(#""battery_percent":null"#))  // the old fields stay
        let none = ControlReply.status(FlightComputer().pfd, board: BoardStatus()).rendered()
        #expect(none.contains(#""barometer":null"#) && none.contains(#""pressure_tendency":null"#))
    }
}

@Suite("runway checklist: HEART RATE and CADENCE from runwayd's sensors")
struct ChecklistSensorTests {
    static func strap(
        connected: Bool = true, bpm: Double? = 72, contact: Bool? = true, battery: Int? = 87
    ) -> ControlSensor {
        ControlSensor(
            shape: .live, address: "A0:9E:1A:12:34:56", name: "Polar H10", kinds: [.heartRate],
            connected: connected,
            batteryPercent: battery, heartRate: bpm, contact: contact)
    }

    static func line(_ sensors: ChecklistSensors, _ kind: ControlSensor.Kind = .heartRate) -> (
        String, String, Bool
    ) {
        let item = sensors.item(kind)
        return (item.verdict.rawValue, item.detail, item.required)
    }

    @Test func eachLineSaysOKNotOKOrNothingToJudgeWithItsReason() {
        #expect(Self.line(.daemon([Self.strap()])) == ("OK", "Polar H10: 72 bpm, battery 87 %", true))
        #expect(
            Self.line(.daemon([Self.strap(connected: false, bpm: nil, contact: nil)]))
                == (
                    "NOT OK",
                    "Polar H10: paired, not connected: wet the strap's electrodes, put it on, and keep it near",
                    true
                ))
        #expect(
            Self.line(.daemon([Self.strap(bpm: nil, contact: false)]))
                == ("NOT OK", "Polar H10: no skin contact: wet the electrodes and tighten the strap", true))
        #expect(
            Self.line(.daemon([Self.strap(bpm: nil, contact: nil)]))
                == ("NOT OK", "Polar H10: connected, no plausible heart rate yet", true))
        #expect(
            Self.line(.daemon([Self.strap(battery: 8)]))
                == (
                    "WARN", "Polar H10: 72 bpm, battery 8 %: replace the strap's battery after this run", true
                ))
        #expect(Self.line(.daemon([Self.strap(battery: nil)])).1 == "Polar H10: 72 bpm, battery --")
        #expect(Self.line(.daemon([])) == ("--", "no strap paired: runway sensors pair", false))
        #expect(
            Self.line(.daemon([Self.strap()]), .cadence) == (
                "--", "no footpod paired: runway sensors pair", false
            ))
        #expect(Self.line(.disabled, .cadence) == ("--", "Bluetooth off in the configuration", false))
        let pod = ControlSensor(
            shape: .live, address: "F4:12:FA:00:01:02", name: "Stryd", kinds: [.cadence], connected: true,
            batteryPercent: 60, cadence: 0)
        #expect(Self.line(.daemon([pod]), .cadence) == ("OK", "Stryd: 0 steps/min, battery 60 %", true))
    }

    /// No sensor service: the lines are `--` with runwayd's own reason, not left out or guessed
    /// from this machine's configuration.
    @Test func noSensorServiceSaysWhyFromRunwayd() throws {
        func sensors(_ bluetooth: String) throws -> ChecklistSensors? {
            let line = #"{"gps_signal":"STRONG","sensors":null,"bluetooth":"# + bluetooth + "}"
            let status = ControlStatus(json: try JSONValue.parse(Array(line.utf8)))!
            let list = ChecklistCommand.fromDaemon(status, battery: BatteryStatus(), storage: .success(1e12))
            return list.sensors
        }
        let simulated = try #require(
            try sensors(
                #"{"state":"not_on_this_board","message":"the simulated board has no Bluetooth sensors (runwayd --board real has)"}"#
            ))
        #expect(
            Self.line(simulated)
                == ("--", "the simulated board has no Bluetooth sensors (runwayd --board real has)", false))
        #expect(try sensors(#"{"state":"disabled","message":"off"}"#) == .disabled)
        #expect(try sensors("null") == nil)  // an older runwayd: the command falls back on the configuration
    }

    /// The adapter off (or BlueZ not running): the line blames it, not the strap.
    @Test func theAdapterNotTheStrapIsBlamed() throws {
        let line =
            #"{"gps_signal":"STRONG","sensors":[{"address":"A0:9E:1A:12:34:56","name":"Polar H10","kinds":["heart_rate"],"connected":false,"battery_percent":null,"heart_rate":null,"cadence":null,"contact":null,"last_seen":null}],"bluetooth":{"state":"powered_off","message":"the Bluetooth adapter is off: bluetoothctl power on (or rfkill unblock bluetooth)"}}"#
        let status = ControlStatus(json: try JSONValue.parse(Array(line.utf8)))!
        #expect(status.bluetooth?.state == .poweredOff)
        let list = ChecklistCommand.fromDaemon(status, battery: BatteryStatus(), storage: .success(1e12))
        let sensors = try #require(list.sensors)
        #expect(
            Self.line(sensors)
                == (
                    "NOT OK",
                    "Polar H10: the Bluetooth adapter is off: bluetoothctl power on (or rfkill unblock bluetooth)",
                    true
                ))
    }

    /// A link that stays up while the strap says nothing: runwayd sends no stale value, and the
    /// line says how long it has been silent.
    @Test func aStrapSilentForSecondsIsNotOK() {
        var silent = Self.strap(bpm: nil, contact: nil)
        silent.lastSeenAge = 12
        #expect(
            Self.line(.daemon([silent]))
                == ("NOT OK", "Polar H10: no reading for 12 s: is it awake and near?", true))
        silent.lastSeenAge = 2
        #expect(Self.line(.daemon([silent])).1 == "Polar H10: connected, no plausible heart rate yet")
    }

    /// A paired strap that is not connected holds takeoff; a low strap battery does not.
    @Test func aDisconnectedStrapIsNotReadyALowBatteryIsAWarning() throws {
        func ready(_ sensors: ChecklistSensors) throws -> Bool {
            let status = ControlStatus(
                json: try JSONValue.parse(Array(#"{"gps_signal":"STRONG","barometer":"ok"}"#.utf8)))!
            var list = ChecklistCommand.fromDaemon(
                status, battery: BatteryStatus(capacity: 90), storage: .success(1e12))
            list.sensors = sensors
            return list.ready
        }
        #expect(try ready(.daemon([Self.strap()])))
        #expect(try ready(.daemon([Self.strap(battery: 5)])))
        #expect(try !ready(.daemon([Self.strap(connected: false)])))
        #expect(try ready(.daemon([])))
        #expect(try ready(.disabled))
    }

    /// `sensors list` before the first GPS fix: a live sensor is "seen 2 s ago", not "never";
    /// "never" is for a sensor that never said anything.
    @Test func aSensorSeenBeforeTheFirstFixIsNotSeenNever() {
        let live = ControlSensor(
            shape: .live, address: "A0:9E:1A:12:34:56", name: "Polar H10", kinds: [.heartRate],
            connected: true, heartRate: 72, lastSeen: nil, lastSeenAge: 2)
        #expect(SensorsCommands.line(live).hasSuffix("72 bpm  seen 2 s ago"), "\(SensorsCommands.line(live))")
        let silent = ControlSensor(
            shape: .live, address: "F4:12:FA:00:01:02", name: "Stryd", kinds: [.cadence], connected: false)
        #expect(SensorsCommands.line(silent).hasSuffix("seen never"))
        #expect(ControlSensor(json: live.json) == live)
    }

    /// The lines read runwayd's `sensors` array; a status without one leaves them to the caller.
    @Test func runwaydsSensorsArrayIsRead() throws {
        let line =
            #"{"gps_signal":"STRONG","sensors":[{"address":"A0:9E:1A:12:34:56","name":"Polar H10","kinds":["heart_rate"],"connected":true,"battery_percent":87,"heart_rate":72,"cadence":null,"contact":true,"last_seen":null}]}"#
        let status = ControlStatus(json: try JSONValue.parse(Array(line.utf8)))!
        let list = ChecklistCommand.fromDaemon(status, battery: BatteryStatus(), storage: .success(1e12))
        #expect(list.sensors == .daemon([Self.strap()]))
        let older = ChecklistCommand.fromDaemon(
            ControlStatus(json: try JSONValue.parse(Array("{}".utf8)))!, battery: BatteryStatus(),
            storage: .success(1e12))
        #expect(older.sensors == nil)
    }
}
