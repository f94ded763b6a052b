import RunWayCore
import RunWaySimulator

for (ratio, count) in [(0.15, 2), (0.08, 2), (0.08, 3), (0.05, 3), (0.1, 2)] {
    var cfg = EngineConfiguration()
    cfg.smoother.reseedRatio = ratio
    cfg.smoother.reseedCount = count
    var all: [Double] = []
    var steadyErr: [Double] = []
    for base in [Scenario.flat5k, Scenario.stops5k, Scenario.demoMission] {
        for seed in 1...30 {
            var sc = base
            sc.seed = UInt64(seed)
            sc.totalDistance = 600
            sc.stops = []
            let run = SimulatedFlight.fly(sc, configuration: cfg)
            all.append(AccuracyScore(run).paceSettleSeconds ?? 999)
            for p in run.earlyReadouts where p.elapsed > 20 && p.elapsed < 150 {
                if let t = run.truth.speed(atElapsed: p.elapsed), t > 1 {
                    steadyErr.append(abs(p.speed - t) / t)
                }
            }
        }
    }
    all.sort()
    steadyErr.sort()
    print(
        ratio, count, "median", all[all.count / 2], "p90", all[all.count * 9 / 10], "max", all.last!,
        "steady p99 err %", steadyErr[steadyErr.count * 99 / 100] * 100)
}
