import RunWayCore
import RunWayHardware

/// The battery gauge (/sys/class/power_supply), read every `interval`: a low battery is said once;
/// a critical one lands a flight in the air — saved, as if END had been held — before the power
/// dies, and sounds its pattern. A board without a gauge is never alarmed.
struct BatteryService: Service {
    let name = "battery"
    let powerSupply: String
    /// Seconds between readings.
    let interval: Double
    let monitor: BatteryMonitor
    let engine: FlightEngine
    /// The board's GPS time now (nil before the first fix).
    let now: @Sendable () async -> Double?
    let annunciator: Annunciator
    let log: DaemonLog

    func run() async throws {
        var monitor = self.monitor
        while true {
            // sysfs attributes are read from the driver's memory: the read never waits on a device.
            let status = BatteryStatus.read(root: powerSupply)
            switch monitor.observe(status) {
            case .low(let percent)?:
                annunciator.fault(.batteryLow, "\(percent) %; the run goes on")
            case .critical(let percent)?:
                await land(percent: percent)
            case nil: break
            }
            try await Sleeper.shared.sleep(for: interval)
        }
    }

    private func land(percent: Int) async {
        guard await engine.isFlying, let time = await now() else {
            annunciator.fault(.batteryCritical, "\(percent) %; charge the board")
            return
        }
        annunciator.fault(.batteryCritical, "\(percent) %; landing the flight before the power dies")
        for case .ended(.landed(let flight)) in await engine.handle(.end(at: time, sentAt: nil)) {
            log.log(.notice, "battery critical: flight landed at \(Int(flight.distance)) m")
        }
    }
}
