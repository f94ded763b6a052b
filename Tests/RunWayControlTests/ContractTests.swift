import Foundation
import RunWayControl
import RunWayCore
import Testing

/// The control socket's wire, pinned by `Tests/Fixtures/control/`: every request and reply is
/// built from its typed value and compared byte for byte, then read back into that value.
enum Golden {
    static func text(_ name: String) throws -> String {
        let url = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/control/\(name)"))
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.hasSuffix("\n"), "\(name) ends with a newline")
        return String(text.dropLast())
    }

    static func bytes(_ name: String) throws -> [UInt8] { Array(try text(name).utf8) }

    static let cruise: PFD = {
        var p = PFD.idle(at: UTCTime.parse("2026-10-03T07:42:17Z")!)
        (p.phase, p.elapsed, p.movingTime, p.distance, p.speed) = (.cruise, 1234.56, 1200.04, 4012.345, 3.1)
        (p.pace, p.altitude, p.heading, p.signal) = (322.66, 47.25, 271.6, .strong)
        (p.heartRate, p.cadence, p.completedSplits) = (152.4, 171.5, 4)
        return p
    }()
    static let paused: PFD = {
        var p = PFD.idle(at: UTCTime.parse("2026-10-03T07:50:00Z")!)
        (p.phase, p.elapsed, p.movingTime, p.distance, p.gpws) = (.approach, 1700, 1500, 5000, .sinkRate)
        (p.pauseReason, p.completedSplits) = (.signalLost, 5)
        return p
    }()
    static let board = BoardStatus(
        batteryPercent: 87.4, storageFreeBytes: 31_914_983_424, flightID: 12,
        barometer: .init(
            answering: true, pascals: 101_296.7,
            weather: Barograph.Reading(tendency: .falling, changePer3h: -180.4, span: 7200)),
        sensors: [strap(heartRate: 152.4)], bluetooth: ControlBluetooth(state: .ready, message: nil))
    static func strap(heartRate: Double) -> ControlSensor {
        ControlSensor(
            shape: .live, address: "A0:9E:1A:12:34:56", name: "Polar H10 1A2B3C4D", kinds: [.heartRate],
            connected: true, batteryPercent: 87, heartRate: heartRate, contact: true,
            lastSeen: UTCTime.parse("2026-10-03T07:42:16Z"), lastSeenAge: 1)
    }
    static let footpod = ControlSensor(
        shape: .identity, address: "F4:12:FA:00:01:02", name: "Stryd", kinds: [.cadence])
    static let polar = ControlSensor(
        shape: .identity, address: "A0:9E:1A:12:34:56", name: "Polar H10 1A2B3C4D", kinds: [.heartRate])
    static let missingBarometer = BoardStatus(
        batteryPercent: 4, storageFreeBytes: 1.5e12,
        barometer: .init(answering: false, pascals: nil, weather: nil))
    static let statuses: [(String, PFD, BoardStatus)] = [
        ("cruise", cruise, board), ("paused", paused, missingBarometer),
        ("idle", .idle(at: 0), BoardStatus()),
    ]
}

@Suite("Control contract: requests")
struct RequestContractTests {
    static let requests: [(String, ControlRequest)] = [
        ("status", .status), ("start", .start(mission: nil)),
        (
            "start-mission",
            .start(mission: Mission(targetPace: 330, allowedDeviation: 15, targetDistance: 5000))
        ),
        (
            "start-mission-fractional",
            .start(mission: Mission(targetPace: 725, allowedDeviation: 7.5, targetDistance: 5200))
        ),
        (
            "start-mission-heart-rate",
            .start(mission: Mission(pace: nil, heartRate: .init(low: 140, high: 155), goal: .duration(1800)))
        ),
        (
            "start-mission-pace-heart-rate",
            .start(
                mission: Mission(
                    pace: .init(targetPace: 330, allowedDeviation: 15), heartRate: .init(low: 140, high: 155),
                    goal: .distance(10_000)))
        ),
        ("pause", .pause), ("resume", .resume), ("stop", .stop(sentAt: nil)),
        ("stop-sent-at", .stop(sentAt: UTCTime.parse("2026-10-03T07:30:00Z"))), ("subscribe", .subscribe),
        ("export-finished-ok", .exportFinished(ok: true)),
        ("export-finished-failed", .exportFinished(ok: false)),
        ("sensors-scan", .sensorsScan(seconds: 10)),
        ("sensors-pair-address", .sensorsPair(sensor: "A0:9E:1A:12:34:56")),
        ("sensors-pair-name", .sensorsPair(sensor: "Polar H10 1A2B3C4D")),
        ("sensors-forget", .sensorsForget(sensor: "Stryd")),
        ("sensors-list", .sensorsList),
    ]

    @Test(arguments: requests)
    func eachRequestIsItsGoldenLine(_ name: String, _ request: ControlRequest) throws {
        let golden = try Golden.text("request-\(name).json")
        #expect(request.line == golden)
        #expect(try ControlRequest.parse(Array(golden.utf8)) == request)
    }

    /// A scan's seconds and a sensor's words are checked before runwayd takes them.
    @Test(arguments: [
        (#"{"command":"sensors-scan","seconds":0}"#, "seconds: expected a whole number 1–60, got 0"),
        (#"{"command":"sensors-scan","seconds":61}"#, "seconds: expected a whole number 1–60, got 61"),
        (#"{"command":"sensors-scan","seconds":2.5}"#, "seconds: expected a whole number 1–60, got 2.5"),
        (#"{"command":"sensors-scan","seconds":"10"}"#, #"seconds: expected a whole number 1–60, got "10""#),
        (
            #"{"command":"sensors-pair"}"#,
            #"sensors-pair needs "sensor": an address (AA:BB:CC:DD:EE:FF) or a name"#
        ),
        (
            #"{"command":"sensors-forget","sensor":""}"#,
            #"sensor: expected an address or a name of 1–248 bytes without control characters, got """#
        ),
        (
            #"{"command":"sensors-pair","sensor":"a\nb"}"#,
            #"sensor: expected an address or a name of 1–248 bytes without control characters, got "a\nb""#
        ),
        (#"{"command":"sensors-list","sensor":"x"}"#, #""sensor" does not go with "sensors-list""#),
    ])
    func sensorRequestsAreChecked(_ line: String, _ message: String) {
        #expect(throws: ControlRequest.Refusal(message: message)) {
            try ControlRequest.parse(Array(line.utf8))
        }
    }

    /// A sensor's name with an ESC, a bidi override, a zero-width or a line separator is refused
    /// (it would drive the terminal, or split the log line, of whoever reads it).
    @Test(arguments: [#"\u001b[2J"#, #"\u202e"#, #"\u200b"#, #"\u2028"#, #"\u2029"#])
    func aSensorNameThatWouldDriveATerminalIsRefused(_ escaped: String) {
        let line = #"{"command":"sensors-pair","sensor":"Polar"# + escaped + #"H10"}"#
        #expect(throws: ControlRequest.Refusal.self) { try ControlRequest.parse(Array(line.utf8)) }
    }

    @Test func aScanWithoutSecondsTakesTen() throws {
        #expect(
            try ControlRequest.parse(Array(#"{"command":"sensors-scan"}"#.utf8)) == .sensorsScan(seconds: 10))
        #expect(ControlRequest.sensorsScan(seconds: 60).answerSeconds == 70)
        #expect(ControlRequest.status.answerSeconds == nil)
    }

    /// Each sensor refusal's sentence reads back as its case (none is mistaken for another).
    @Test func everySensorRefusalReadsBackAsItself() {
        let all: [SensorRefusal] = [
            .bluetoothDisabled, .notOnThisBoard, .noRadio, .blueZNotRunning, .busUnavailable, .noAdapter,
            .adapterOff,
            .permissionDenied, .busyScanning, .busyPairing, .unknownSensor("x"), .ambiguousName("x"),
            .notASensor("x"), .pairingRefused("x"), .pairingTimedOut("x"), .notStored("x"), .radioFailed("x"),
            .storeUnreadable("x"), .alreadyPairing("x"),
        ]
        for refusal in all { #expect(ControlRefusal(message: refusal.description) == .sensors(refusal)) }
        #expect(ControlRefusal(message: "no sensor") == .invalid("no sensor"))
    }

    @Test func theWireHasAVersion() { #expect(ControlContract.protocolVersion == 1) }

    /// A newer client's field is ignored when it says it is newer; without that, a field this
    /// version does not know is still refused (a typo is never silently dropped).
    @Test func aNewerClientsFieldsAreTolerated() throws {
        let newer =
            #"{"command":"stop","protocol_version":2,"reason":"button","sent_at":"2026-10-03T07:30:00Z"}"#
        #expect(
            try ControlRequest.parse(Array(newer.utf8))
                == .stop(sentAt: UTCTime.parse("2026-10-03T07:30:00Z")))
        #expect(
            try ControlRequest.parse(Array(#"{"command":"status","protocol_version":1}"#.utf8)) == .status)
        for line in [#"{"command":"status","x":1}"#, #"{"command":"status","protocol_version":1,"x":1}"#] {
            #expect(throws: ControlRequest.Refusal(message: #""x" does not go with "status""#)) {
                try ControlRequest.parse(Array(line.utf8))
            }
        }
        // Still strict about what it knows: a newer client's bad mission is refused.
        #expect(throws: ControlRequest.Refusal.self) {
            try ControlRequest.parse(
                Array(#"{"command":"start","protocol_version":2,"mission":{"pace":"9"}}"#.utf8))
        }
    }
}

@Suite("Control contract: replies and events")
struct ReplyContractTests {
    static let outcomes: [(String, ControlOutcome)] = [
        ("landed", ControlOutcome(result: .landed, distance: 5012.345, recorded: true, phase: "touchdown")),
        ("landed-short", ControlOutcome(result: .landed, distance: 80, recorded: false, phase: "touchdown")),
        ("takeoff-abandoned", ControlOutcome(result: .takeoffAbandoned, phase: "preflight")),
        ("ignored-stale", ControlOutcome(result: .ignoredStale, phase: "cruise")),
        ("not-flying", ControlOutcome(result: .notFlying, phase: "touchdown")),
        ("already-cruise", ControlOutcome(result: .already("cruise"), phase: "cruise")),
        ("phase", ControlOutcome(phase: "takeoff")),
        ("held-start-cancelled", ControlOutcome(result: .heldStartCancelled, phase: "preflight")),
        ("held-not-flying", ControlOutcome(result: .notFlying, phase: "preflight")),
        ("held-until-first-fix", ControlOutcome(result: .heldUntilFirstFix, phase: "preflight")),
        ("export-done", ControlOutcome(result: .exportDone)),
        ("export-failed", ControlOutcome(result: .exportFailed)),
        ("subscribed", ControlOutcome(subscribed: true)),
        (
            "sensors-scan",
            ControlOutcome(sensors: [
                ControlSensor(
                    shape: .scanned, address: "A0:9E:1A:12:34:56", name: "Polar H10 1A2B3C4D",
                    kinds: [.heartRate],
                    rssi: -48, paired: true),
                ControlSensor(
                    shape: .scanned, address: "F4:12:FA:00:01:02", name: "Stryd", kinds: [.cadence],
                    rssi: -71,
                    paired: false),
                ControlSensor(
                    shape: .scanned, address: "C8:FD:19:AA:BB:CC", name: nil, kinds: [.heartRate], rssi: nil,
                    paired: false),
            ])
        ),
        (
            "sensors-list",
            ControlOutcome(sensors: [
                Golden.strap(heartRate: 72),
                ControlSensor(
                    shape: .live, address: "F4:12:FA:00:01:02", name: "Stryd", kinds: [.cadence],
                    connected: false),
            ])
        ),
        ("sensors-list-empty", ControlOutcome(sensors: [])),
        ("sensors-paired", ControlOutcome(paired: Golden.polar)),
        (
            "sensors-paired-replacing",
            ControlOutcome(
                paired: Golden.polar,
                replaced: [
                    ControlSensor(
                        shape: .identity, address: "C8:FD:19:AA:BB:CC", name: "TICKR", kinds: [.heartRate])
                ])
        ),
        ("sensors-forgotten", ControlOutcome(forgotten: Golden.footpod)),
    ]

    @Test(arguments: outcomes)
    func eachOutcomeIsItsGoldenLine(_ name: String, _ outcome: ControlOutcome) throws {
        let golden = try Golden.text("reply-\(name).json")
        #expect(ControlResponse.ok(outcome).line == golden)
        let read = try #require(ControlResponse(line: Array(golden.utf8)))
        #expect(read.line == golden)
        guard case .ok(let back) = read else {
            Issue.record("\(name) read as a refusal")
            return
        }
        #expect(
            back.result == outcome.result && back.phase == outcome.phase && back.recorded == outcome.recorded)
        #expect(
            back.sensors == outcome.sensors && back.paired == outcome.paired
                && back.replaced == outcome.replaced
                && back.forgotten == outcome.forgotten)
        #expect(back.protocolVersion == ControlContract.protocolVersion)
    }

    static let refusals: [(String, ControlRefusal)] = [
        ("no-gps-time", .noGPSTimeYet), ("not-a-command", .notACommand), ("too-long", .tooLong),
        ("not-completed", .notCompleted(seconds: 10)), ("full", .full(clients: 8)),
        ("made-room", .madeRoom(slots: 8)),
        ("deadline", .busy(seconds: 3)), ("overloaded", .overloaded),
        ("parse", .invalid(#""x" does not go with "status""#)),
        ("mission", .invalid(#"mission.distance: expected metres 100–500000, got "fast""#)),
        ("duplicate", .invalid(#""command" is given twice (again at byte 20): give each key once"#)),
        ("sensors-bluetooth-disabled", .sensors(.bluetoothDisabled)),
        ("sensors-not-on-this-board", .sensors(.notOnThisBoard)), ("sensors-no-radio", .sensors(.noRadio)),
        ("sensors-bluez-not-running", .sensors(.blueZNotRunning)),
        ("sensors-bus-unavailable", .sensors(.busUnavailable)),
        ("sensors-no-adapter", .sensors(.noAdapter)), ("sensors-adapter-off", .sensors(.adapterOff)),
        ("sensors-permission-denied", .sensors(.permissionDenied)),
        ("sensors-busy-scanning", .sensors(.busyScanning)),
        ("sensors-busy-pairing", .sensors(.busyPairing)),
        ("sensors-unknown", .sensors(.unknownSensor("Polar H7"))),
        ("sensors-ambiguous", .sensors(.ambiguousName("TICKR"))),
        ("sensors-not-a-sensor", .sensors(.notASensor("Galaxy Buds"))),
        ("sensors-pairing-refused", .sensors(.pairingRefused("Polar H10 1A2B3C4D"))),
        ("sensors-pairing-timed-out", .sensors(.pairingTimedOut("Stryd"))),
        ("sensors-not-stored", .sensors(.notStored("/var/lib/runway/sensors.json"))),
        ("sensors-store-unreadable", .sensors(.storeUnreadable("/var/lib/runway/sensors.json"))),
        ("sensors-already-pairing", .sensors(.alreadyPairing("Polar H10 1A2B3C4D"))),
        (
            "sensors-radio-failed",
            .sensors(.radioFailed("D-Bus error org.bluez.Error.Failed: Operation already in progress"))
        ),
        (
            "control-character",
            .invalid(
                "unknown command \"st\u{1}op\" (status, start, pause, resume, lap, stop, subscribe, export-finished, sensors-scan, sensors-pair, sensors-forget, sensors-list)"
            )
        ),
    ]

    @Test(arguments: refusals)
    func eachRefusalIsItsGoldenLineAndReadsBackAsItsCase(_ name: String, _ refusal: ControlRefusal) throws {
        let golden = try Golden.text("reply-refused-\(name).json")
        #expect(ControlResponse.refused(refusal).line == golden)
        #expect(ControlReply.refused(refusal) == golden)
        #expect(ControlResponse(line: Array(golden.utf8)) == .refused(refusal))
    }

    /// The words the daemon's parser says are the ones in the goldens.
    @Test func theParsersRefusalsAreTheGoldens() throws {
        func refusal(_ line: String) -> String {
            do {
                _ = try ControlRequest.parse(Array(line.utf8))
                return "accepted"
            } catch { return error.message }
        }
        #expect(
            ControlReply.refused(refusal(#"{"command":"status","x":1}"#))
                == (try Golden.text("reply-refused-parse.json")))
        #expect(
            ControlReply.refused(refusal(#"{"command":"status","command":"stop"}"#))
                == (try Golden.text("reply-refused-duplicate.json")))
        #expect(
            ControlReply.refused(refusal("{\"command\":\"st\\u0001op\"}"))
                == (try Golden.text("reply-refused-control-character.json")))
        #expect(
            ControlReply.refused(refusal(#"{"command":"start","mission":{"pace":"5:30","distance":"fast"}}"#))
                == (try Golden.text("reply-refused-mission.json")))
    }

    @Test(arguments: Golden.statuses)
    func eachStatusAndStateEventIsItsGoldenLine(_ name: String, _ pfd: PFD, _ board: BoardStatus) throws {
        let reply = ControlResponse.ok(ControlOutcome(status: ControlStatus(pfd, board: board))).line
        #expect(reply == (try Golden.text("reply-status-\(name).json")))
        #expect(ControlReply.ok([("status", ControlReply.status(pfd, board: board))]) == reply)
        let event = try Golden.text("event-state-\(name).json")
        #expect(ControlEvent(state: pfd, board: board).line == event)
        #expect(ControlReply.event(state: pfd, board: board) == event)
        let read = try #require(ControlEvent(line: Array(event.utf8)))
        #expect(read.kind == .state(ControlStatus(pfd, board: board)))
    }

    @Test func calloutEventsAreTheirGoldenLines() throws {
        let split = TimedCallout(.split(order: 3, pace: 318), at: UTCTime.parse("2026-10-03T07:40:00Z")!)
        let error = TimedCallout(
            .error("logbook /var/lib/runway full"), at: UTCTime.parse("2026-10-03T07:41:00Z")! + 0.25)
        for (name, callout) in [("split", split), ("error", error)] {
            let golden = try Golden.text("event-callout-\(name).json")
            #expect(ControlEvent(callout: callout).line == golden)
            #expect(ControlEvent(line: Array(golden.utf8))?.kind == .callout(callout.callout.text))
        }
    }

    /// A newer daemon's extra fields are read past, and kept for `--json`.
    @Test func aNewerDaemonsFieldsAreTolerated() throws {
        let line =
            #"{"ok":true,"result":"landed","distance_m":5000,"lap":3,"phase":"touchdown","protocol_version":7}"#
        guard case .ok(let outcome)? = ControlResponse(line: Array(line.utf8)) else {
            Issue.record("refused")
            return
        }
        #expect(outcome.result == .landed && outcome.distance == 5000 && outcome.protocolVersion == 7)
        // A daemon from before the version field: the same reply, no version.
        guard case .ok(let older)? = ControlResponse(line: Array(#"{"ok":true,"phase":"cruise"}"#.utf8))
        else {
            Issue.record("refused")
            return
        }
        #expect(older.phase == "cruise" && older.protocolVersion == nil)
        let status = #"{"ok":true,"status":{"phase":"cruise","vo2":51,"distance_m":12}}"#
        guard case .ok(let reply)? = ControlResponse(line: Array(status.utf8)) else {
            Issue.record("refused")
            return
        }
        #expect(reply.status?.number(.distance) == 12 && reply.status?.json["vo2"] == .number(51))
        let event = try #require(ControlEvent(line: Array(#"{"event":"lap","lap":3}"#.utf8)))
        #expect(event.kind == .other)
    }

    @Test func okMustBeJSONTrueAndAKeyTwiceIsNoReply() {
        for value in ["1", "\"true\"", "null", "false"] {
            #expect(ControlResponse(line: Array(#"{"ok":\#(value)}"#.utf8)) == .refused(.unexplained))
        }
        #expect(ControlResponse(line: Array(#"{"ok":false,"ok":true}"#.utf8)) == nil)
        #expect(ControlResponse(line: Array("[1]".utf8)) == nil)
        #expect(ControlRefusal.unexplained.description == "no reason given")
    }

    @Test func unknownResultWordsAndRefusalsStayAsTheyCame() {
        #expect(ControlResult(text: "lap saved") == .other("lap saved"))
        #expect(ControlResult(text: "already ") == .other("already "))
        #expect(ControlRefusal(message: "busy: 08x clients already") == .invalid("busy: 08x clients already"))
        #expect(ControlRefusal(message: "busy: 08 clients already") == .invalid("busy: 08 clients already"))
        #expect(ControlRefusal(message: "busy: 0 clients already") == .full(clients: 0))
    }
}
