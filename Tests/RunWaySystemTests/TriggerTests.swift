import RunWaySystem
import Testing

@Suite("Trigger and executors")
struct TriggerTests {
    @Test func aFiredTriggerReleasesEveryWaiterAndLaterOnes() async {
        let trigger = Trigger()
        async let first: Void = trigger.wait()
        trigger.fire()
        await first
        await trigger.wait()  // fired before: returns at once
        #expect(trigger.hasFired)
    }

    actor Counter {
        let executor: ThreadExecutor
        var count = 0
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        init(executor: ThreadExecutor) { self.executor = executor }
        func add() -> Bool {
            count += 1
            return executor.isCurrentThread
        }
    }

    @Test func anActorOnAThreadExecutorRunsOnThatThread() async {
        let executor = ThreadExecutor(name: "test")
        let counter = Counter(executor: executor)
        #expect(await counter.add())
        #expect(await counter.count == 1)
        await executor.shutdown()
    }
}
