extension FlightInProgress {
    // MARK: The runner's slips (issue 27)

    /// A fix's Doppler speed (as reported: a car on a motorway reads beyond the glitch limit) and
    /// the footpod's cadence through `SlipWatch` while manually paused, else `VehicleWatch`.
    mutating func watchRunner(at time: Double, speed: Double?, _ out: inout [EngineOutput]) {
        let cadence = latest(latestBody.cadence, at: time)
        if pause.pauseReason == .manual {
            switch slips.observe(time: time, speed: speed, cadence: cadence) {
            case .remind?:
                decide(.stillPaused, at: time)
                out.append(.callout(TimedCallout(.stillPaused, at: time)))
            case .resume(let since, let metres)?:
                if let transition = pause.manualResume(at: since) {
                    decide(.autoResume, at: time, value: metres)
                    apply([transition], at: time, &out)
                    odometer.credit(metres)
                    drift.forgetPosition()
                }
                slips.reset()
            case nil: break
            }
            return
        }
        if pause.pauseReason == .vehicle, let speed, speed >= configuration.pause.movingSpeed {
            vehicleMovedAt = time
        }
        let wasStreak = vehicle.streakSince != nil
        let decision = vehicle.observe(time: time, speed: speed, cadence: cadence)
        if !wasStreak, vehicle.streakSince != nil, !vehicle.riding {
            distanceBeforeVehicle = odometer.distance
        }
        switch decision {
        case .vehicle(let since)?:
            let taken = odometer.shown - min(odometer.shown, distanceBeforeVehicle ?? odometer.shown)
            odometer.rewind(to: distanceBeforeVehicle ?? odometer.distance)
            drift.forgetPosition()
            let wasPaused = pause.isPaused
            if let transition = pause.vehiclePause(since: since) {
                decide(.vehiclePause, at: time, value: taken)
                apply([transition], at: time, &out)
            } else if wasPaused, pause.pauseReason == .vehicle {
                out.append(.callout(TimedCallout(.pause(.vehicle), at: time)))
            }
        case .running(let since, let metres)?:
            if let transition = pause.vehicleResume(at: since) {
                decide(.vehicleResume, at: time, value: metres)
                apply([transition], at: time, &out)
                odometer.credit(metres)
                drift.forgetPosition()
            }
        case nil: break
        }
    }

    /// Time passing while paused: a forgotten stop is reminded, then landed (`StandstillWatch`).
    /// A vehicle's pause is a standstill only from the vehicle's last movement: a drive of five
    /// minutes was said as "stopped for five minutes".
    mutating func watchStandstill(at time: Double, _ out: inout [EngineOutput]) {
        var since = pause.pausedSince
        if pause.pauseReason == .vehicle, let paused = since, let moved = vehicleMovedAt {
            since = max(paused, moved)
        }
        switch standstill.observe(time: time, pausedSince: since, landAt: pause.pausedSince) {
        case .remind(let seconds, _)?:
            decide(.standstillReminder, at: time, value: (seconds / 60).rounded(.down))
            out.append(
                .callout(TimedCallout(.standstill(minutes: Int(seconds / 60), landing: false), at: time)))
        case .land(let last, let seconds)?:
            landingDue = (last, seconds)
        case nil: break
        }
    }
}
