/// A flight in progress judges its mission: the goal, MINIMUMS, and the pace and heart-rate
/// bands' alerts, said and logged as episodes.
extension FlightInProgress {
    // MARK: Mission

    mutating func updateMission(at time: Double, _ out: inout [EngineOutput]) {
        updateWorkout(at: time, &out)
        guard mission != nil || workout != nil else { return }
        if let mission, let progress = goalProgress(at: time), !missionComplete,
            progress >= (mission.targetDistance ?? mission.targetDuration ?? .infinity)
        {
            // The goal reached: band alerts stop for good, and the flight goes on as a free
            // flight until END.
            missionComplete = true
            silenceBandAlerts(at: time, &out)
            paceAlerts = nil
            heartRateAlerts = nil
            out.append(.callout(TimedCallout(.missionComplete, at: time)))
        }
        let changed = smoother.reseeds != reseedsJudged
        reseedsJudged = smoother.reseeds
        if !pause.isPaused {
            // Heart rate first: a pace callout that begins at the same time is then held back.
            let heartRate = latest(latestBody.heartRate, at: time)
            let movingTime = pause.movingTime(at: time)
            let stepMoving = stepMovingTime(movingTime)
            if let changes = heartRateAlerts?.update(heartRate: heartRate, movingTime: stepMoving, at: time) {
                recordAlertChanges(changes, at: time, &out)
            }
            if let changes = paceAlerts?.update(speed: smoother.speed, at: time, changed: changed) {
                recordAlertChanges(changes, at: time, &out)
            }
        }
        if let progress = goalProgress(at: time), minimums?.shouldSound(progress) == true {
            out.append(.callout(TimedCallout(.minimums, at: time)))
        }
        phase = isInApproach(at: time) ? .approach : .cruise
    }

    /// Ends every band alert's episode at once (a pause, MISSION COMPLETE, touchdown).
    mutating func silenceBandAlerts(at time: Double, _ out: inout [EngineOutput]) {
        recordAlertChanges(heartRateAlerts?.silence(at: time) ?? [], at: time, &out)
        recordAlertChanges(paceAlerts?.silence(at: time) ?? [], at: time, &out)
    }

    /// Logs each change as an episode and says it. **Precedence:** both bands' episodes are
    /// always logged, but while an HR HIGH or HR LOW episode is open a pace callout is not said:
    /// heart rate is the runner's limit, and SINK RATE ("faster") over HR HIGH ("easier") would
    /// tell them two opposite things. The PFD shows the heart-rate state likewise.
    mutating func recordAlertChanges(_ changes: [GPWSChange], at time: Double, _ out: inout [EngineOutput]) {
        for change in changes {
            switch change {
            case .began(let kind, let start):
                alerts.append(AlertEpisode(kind: kind, startElapsed: start - rotateAt, coordinate: position))
                say(kind, at: time, &out)
            case .ended(let kind, let end):
                if let open = alerts.lastIndex(where: { $0.kind == kind && $0.endElapsed == nil }) {
                    alerts[open].endElapsed = max(alerts[open].startElapsed, end - rotateAt)
                }
            case .repeated(let kind, _):
                say(kind, at: time, &out)
            }
        }
    }

    private func say(_ kind: GPWSAlert, at time: Double, _ out: inout [EngineOutput]) {
        let callout: Callout
        switch kind {
        case .sinkRate, .overspeed:
            if case .alerting = heartRateAlerts?.state { return }
            callout = kind == .sinkRate ? .sinkRate : .overspeed
        case .heartRateHigh: callout = .heartRateHigh
        case .heartRateLow: callout = .heartRateLow
        case .minimums: callout = .minimums
        }
        out.append(.callout(TimedCallout(callout, at: time)))
    }
}
