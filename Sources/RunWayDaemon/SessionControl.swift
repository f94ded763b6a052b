import Foundation
import RunWayCore

/// The runner's commands from the control socket, flown into the session as engine inputs at
/// the board's current time on the GPS axis; the reply says what happened.
struct SessionControl: Sendable {
    let session: LiveFlightSession
    let defaultMission: Mission?
    let logbookDirectory: String?
    /// The board's GPS time now (nil before the first fix: commands wait for one).
    let now: @Sendable () async -> Double?
    let battery: @Sendable () -> Double?

    func board() async -> BoardStatus {
        var free: Double?
        if let directory = logbookDirectory,
            let attributes = try? FileManager.default.attributesOfFileSystem(forPath: directory)
        {
            free = (attributes[.systemFreeSize] as? NSNumber)?.doubleValue
        }
        return BoardStatus(
            batteryPercent: battery(), storageFreeBytes: free, flightID: await session.flightID)
    }

    func answer(_ request: ControlRequest) async -> String {
        if case .status = request {
            return ControlReply.ok([("status", ControlReply.status(await session.pfd, board: await board()))])
        }
        guard let time = await now() else {
            return ControlReply.refused(
                "no GPS time yet: wait for the first fix (runway status shows the signal)")
        }
        let input: EngineInput
        switch request {
        case .status, .subscribe: return ControlReply.refused("not a command")
        case .start(let mission):
            input = .start(at: time, mission: mission ?? defaultMission, countdown: true)
        case .pause: input = .pause(at: time)
        case .resume: input = .resume(at: time)
        case .stop(let sentAt): input = .end(at: time, sentAt: sentAt)
        }
        let phaseBefore = await session.phase
        let outputs = await session.handle(input)
        var fields: [(String, JSONValue)] = []
        for case .ended(let result) in outputs {
            switch result {
            case .landed(let flight):
                fields += [
                    ("result", .string("landed")), ("distance_m", .number(flight.distance, places: 1)),
                    ("recorded", .bool(flight.status == .recorded)),
                ]
            case .abandonedTakeoff: fields.append(("result", .string("takeoff abandoned")))
            case .ignoredStale: fields.append(("result", .string("ignored: sent before this flight started")))
            case .notFlying: fields.append(("result", .string("not flying")))
            }
        }
        let phase = await session.phase
        if case .start = request, phaseBefore != .preflight && phaseBefore != .touchdown {
            fields.append(("result", .string("already \(phaseBefore.rawValue)")))
        }
        return ControlReply.ok(fields + [("phase", .string(phase.rawValue))])
    }
}
