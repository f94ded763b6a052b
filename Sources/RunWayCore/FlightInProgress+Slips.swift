extension FlightInProgress {
    // MARK: The runner's slips (issue 27)

    /// A fix's Doppler speed (as reported: a car on a motorway reads beyond the glitch limit) and
    /// the footpod's cadence through `SlipWatch` while manually paused, else `VehicleWatch`.
    mutating func watchRunner(at time: Double, speed: Double?, _ out: inout [EngineOutput]) {
        let cadence = latest(latestBody.cadence, at: time)
        if pause.pauseReason == .manual {
            switch slips.observe(time: time, speed: speed, cadence: cadence) {
            case .remind?:
                out.append(.callout(TimedCallout(.stillPaused, at: time)))
            case .resume(let since, let metres)?:
                if let transition = pause.manualResume(at: since) {
                    apply([transition], at: time, &out)
                    odometer.credit(metres)
                }
                slips.reset()
            case nil: break
            }
            return
        }
        let wasStreak = vehicle.streakSince != nil
        let decision = vehicle.observe(time: time, speed: speed, cadence: cadence)
        if !wasStreak, vehicle.streakSince != nil, !vehicle.riding {
            distanceBeforeVehicle = odometer.distance
        }
        switch decision {
        case .vehicle(let since)?:
            odometer.rewind(to: distanceBeforeVehicle ?? odometer.distance)
            let wasPaused = pause.isPaused
            if let transition = pause.vehiclePause(since: since) {
                apply([transition], at: time, &out)
            } else if wasPaused, pause.pauseReason == .vehicle {
                out.append(.callout(TimedCallout(.pause(.vehicle), at: time)))
            }
        case .running(let since, let metres)?:
            if let transition = pause.vehicleResume(at: since) {
                apply([transition], at: time, &out)
                odometer.credit(metres)
            }
        case nil: break
        }
    }

    /// Time passing while paused: a forgotten stop is reminded, then landed (`StandstillWatch`).
    mutating func watchStandstill(at time: Double, _ out: inout [EngineOutput]) {
        switch standstill.observe(time: time, pausedSince: pause.pausedSince) {
        case .remind(let seconds, _)?:
            out.append(
                .callout(TimedCallout(.standstill(minutes: Int(seconds / 60), landing: false), at: time)))
        case .land(let last, let seconds)?:
            landingDue = (last, seconds)
        case nil: break
        }
    }
}
