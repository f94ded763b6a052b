import RunWayCore

/// The run's own settings (`run` in runway.json, issue 27), every key optional:
/// `{"units": "km", "split_length_m": null, "auto_pause": true, "auto_resume_after_s": null,
/// "standstill_remind_after_s": 300, "standstill_land_after_s": 1800, "manual_lap": true}`.
public struct RunSettings: Sendable, Equatable {
    /// Auto-pause (no movement for 8 s pauses the flight); off: only the button pauses (a signal
    /// loss still does: no fix is no distance).
    /// Kilometres or miles: splits, callouts and the summary follow.
    public var units = DistanceUnit.kilometre
    /// The splits' length in metres; nil: one unit.
    public var splitLength: Double?
    public var autoPause = true
    /// Running this long while paused by the button resumes the flight by itself; nil: never
    /// (the runner is reminded).
    public var autoResumeAfter: Double?
    /// A standstill this long is reminded; one of `standstillLandAfter` lands the flight at its
    /// last movement (nil: never).
    public var standstillRemindAfter = StandstillWatch.Configuration().remindAfter
    public var standstillLandAfter: Double? = StandstillWatch.Configuration().landAfter
    /// END pressed briefly in flight is the lap (a workout's step ends there); off: it only
    /// says to hold END to finish.
    public var manualLap = true

    public init() {}

    /// The engine's rules these settings change.
    public func apply(to engine: inout EngineConfiguration) {
        engine.units = units
        engine.splitLength = splitLength ?? units.metres
        if !autoPause { engine.pause.autoPauseAfter = .infinity }
        engine.slips.autoResumeAfter = autoResumeAfter
        engine.standstill.remindAfter = standstillRemindAfter
        engine.standstill.landAfter = standstillLandAfter
    }
}

extension Reader {
    /// `run`: each key checked against what a runner could mean.
    func runSettings() throws(Problem) -> RunSettings {
        var run = RunSettings()
        let entries = try object(known: [
            "units", "split_length_m", "auto_pause", "auto_resume_after_s", "standstill_remind_after_s",
            "standstill_land_after_s", "manual_lap",
        ])
        if let lap = entries["manual_lap"] { run.manualLap = try lap.bool("true or false") }
        if let units = entries["units"] {
            let text = try units.string("\"km\" or \"mi\"")
            guard let unit = DistanceUnit(rawValue: text) else { throw units.fail("\"km\" or \"mi\"") }
            run.units = unit
        }
        if let length = entries["split_length_m"], !length.isNull {
            run.splitLength = try length.number("metres 200–10000, or null (one unit)", in: 200...10_000)
        }
        if let auto = entries["auto_pause"] { run.autoPause = try auto.bool("true or false") }
        if let resume = entries["auto_resume_after_s"], !resume.isNull {
            run.autoResumeAfter = try resume.number("seconds 10–600, or null (never)", in: 10...600)
        }
        if let remind = entries["standstill_remind_after_s"] {
            run.standstillRemindAfter = try remind.number("seconds 60–7200", in: 60...7200)
        }
        if let land = entries["standstill_land_after_s"] {
            run.standstillLandAfter =
                land.isNull ? nil : try land.number("seconds 300–86400, or null (never)", in: 300...86400)
        }
        if let land = run.standstillLandAfter, land <= run.standstillRemindAfter,
            let key = entries["standstill_land_after_s"] ?? entries["standstill_remind_after_s"]
        {
            throw Problem(
                path: key.path,
                message:
                    "the landing (\(Int(land)) s) must come after the reminder (\(Int(run.standstillRemindAfter)) s)"
            )
        }
        return run
    }
}
