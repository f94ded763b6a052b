import Foundation
import RunWaySystem
import Synchronization
import Testing

/// SIGUSR1s the tests' handler has taken (a C handler cannot capture).
private let interruptions = Atomic<Int>(0)

/// SIGUSR1 handled without SA_RESTART, so a blocking call it lands in fails with EINTR (or
/// returns short) instead of being restarted by the kernel: what `Errno.retryingInterrupts` is for.
private func installInterruptingHandler() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in interruptions.add(1, ordering: .relaxed) }
    action.sa_flags = 0
    sigemptyset(&action.sa_mask)
    sigaction(SIGUSR1, &action, nil)
}

/// Runs `body` on a thread of its own and returns it with that thread's pthread id.
private final class Worker<Result: Sendable>: Sendable {
    private let state = Mutex<(thread: pthread_t?, result: Result?)>((nil, nil))
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Result) {
        let thread = Thread { [self] in
            var usr1 = sigset_t()
            sigemptyset(&usr1)
            sigaddset(&usr1, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &usr1, nil)  // a thread may start with it blocked
            state.withLock { $0.thread = pthread_self() }
            let result = body()
            state.withLock { $0.result = result }
            done.signal()
        }
        thread.start()
        while state.withLock({ $0.thread }) == nil { usleep(1_000) }
    }

    /// Sends SIGUSR1 to the worker's thread.
    func interrupt() { _ = pthread_kill(state.withLock { $0.thread! }, SIGUSR1) }

    /// The worker's result; nil when it has not returned within 10 s.
    func result() -> Result? {
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return state.withLock { $0.result }
    }
}

/// Waits (at most 5 s) until the handler has taken a SIGUSR1 since `before`; whether it did.
private func interrupted(since before: Int) -> Bool {
    for _ in 0..<5_000 {
        if interruptions.load(ordering: .relaxed) != before { return true }
        usleep(1_000)
    }
    return false
}

private func close(_ ends: FileDescriptor...) {
    for end in ends { try? end.close() }
}

@Suite("The system layer: errno, file descriptors, poll, eventfd, constants")
struct SystemLayerTests {
    @Test func anErrnoHasItsNameAndTheSystemsMessage() {
        #expect(Errno.noSpace.name == "ENOSPC")
        #expect(Errno.noSpace.message == "No space left on device")
        #expect(Errno.noSpace.description == "No space left on device")
        #expect(Errno.wouldBlock.name == "EAGAIN")  // EWOULDBLOCK is EAGAIN on Linux
        #expect(Errno.interrupted.name == "EINTR")
        #expect(Errno(rawValue: 4242).name == "errno 4242")
        #expect(Errno.fileTooLarge.isNoSpace && Errno.quotaExceeded.isNoSpace && !Errno.ioError.isNoSpace)
    }

    @Test func anInterruptedCallIsMadeAgainAndAnyOtherFailureThrown() throws {
        var calls = 0
        let result = try Errno.retryingInterrupts { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        #expect(throws: Errno.noSpace) {
            try Errno.retryingInterrupts { () -> Int in
                errno = ENOSPC
                return -1
            }
        }
    }

    @Test func aReadInterruptedByASignalIsRetried() throws {
        installInterruptingHandler()
        let (input, output) = try FileDescriptor.pipe()
        defer { close(input, output) }
        let before = interruptions.load(ordering: .relaxed)
        let reader = Worker { () -> Result<[UInt8], Errno> in
            var buffer = [UInt8](repeating: 0, count: 16)
            return Result { () throws(Errno) in
                let n = try input.read(into: &buffer)
                return Array(buffer.prefix(n))
            }
        }
        usleep(50_000)  // the reader is blocked in read(2) by now
        reader.interrupt()
        #expect(interrupted(since: before))
        try output.writeAll(Array("fix".utf8))
        #expect(try reader.result()?.get() == Array("fix".utf8))
    }

    @Test func writeAllWritesOnAfterAShortWrite() throws {
        installInterruptingHandler()
        let (input, output) = try FileDescriptor.pipe()
        defer { close(input, output) }
        // Four times a pipe's capacity: the writer blocks with the pipe full, and the signal
        // makes write(2) return what it had written so far, a short write.
        let bytes = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let before = interruptions.load(ordering: .relaxed)
        let writer = Worker { () -> Errno? in
            do throws(Errno) {
                try output.writeAll(bytes)
                return nil
            } catch {
                return error
            }
        }
        usleep(50_000)
        writer.interrupt()
        #expect(interrupted(since: before))
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read.count < bytes.count {
            let n = try input.read(into: &buffer)
            if n == 0 { break }
            read += buffer.prefix(n)
        }
        #expect(writer.result() == .some(nil))
        #expect(read == bytes)
    }

    @Test func writeAllOnAFullNonBlockingPipeSaysWouldBlock() throws {
        let (input, output) = try FileDescriptor.pipe()
        defer { close(input, output) }
        _ = fcntl(output.rawValue, F_SETFL, fcntl(output.rawValue, F_GETFL) | O_NONBLOCK)
        #expect(throws: Errno.wouldBlock) {
            try output.writeAll([UInt8](repeating: 1, count: 1 << 20))
        }
    }

    @Test func positionedReadsAndWritesLeaveTheOffsetAlone() throws {
        let path = NSTemporaryDirectory() + "runway-system-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, permissions: 0o600)
        defer {
            try? file.close()
            unlink(path)
        }
        try file.writeAll(Array("runway".utf8))
        _ = try Array("W".utf8).withUnsafeBytes { try file.write(toAbsoluteOffset: 3, $0) }
        try file.dataSync()
        var bytes = [UInt8](repeating: 0, count: 6)
        let n = try bytes.withUnsafeMutableBytes { try file.read(fromAbsoluteOffset: 0, into: $0) }
        #expect(n == 6 && bytes == Array("runWay".utf8))
        #expect(try file.status().st_size == 6)
        #expect(throws: Errno.fileExists) { try FileDescriptor.open(path, O_RDWR | O_CREAT | O_EXCL) }
    }

    @Test func aWakeSignalIsKeptUntilItIsWaitedForAndThenConsumed() {
        let wake = WakeSignal()
        #expect(!wake.wait(milliseconds: 0))
        wake.signal()
        wake.signal()
        #expect(wake.wait(milliseconds: 0))
        #expect(!wake.wait(milliseconds: 0))  // both signals were one wake-up
        wake.signal()
        wake.sleep(milliseconds: 1_000)  // returns at once, and drains
        #expect(!wake.wait(milliseconds: 0))
    }

    @Test func pollSaysWhichDescriptorIsReadable() throws {
        let (input, output) = try FileDescriptor.pipe()
        defer { close(input, output) }
        let wake = WakeSignal()
        #expect(Poll.readable(input.rawValue, wake.fd, timeout: 0) == .timedOut)
        wake.signal()
        #expect(Poll.readable(input.rawValue, wake.fd, timeout: 0) == .second)
        try output.writeAll([1])
        #expect(Poll.readable(input.rawValue, wake.fd, timeout: 0) == .first)  // the first wins
        #expect(Poll.readable(nil, wake.fd, timeout: 0) == .second)
    }

    @Test func theMonotonicClockNeverGoesBack() {
        let first = MonotonicClock.seconds
        usleep(2_000)
        let second = MonotonicClock.seconds
        #expect(first > 0 && second - first >= 0.002 && second - first < 1)
    }

    /// O_DIRECT comes from this architecture's C headers: the value matches the kernel's uapi
    /// headers for the architecture, and what the C compiler itself says with _GNU_SOURCE.
    @Test func oDirectIsThisArchitecturesValue() throws {
        #if arch(x86_64)
            #expect(FileDescriptor.oDirect == 0o40000)
        #elseif arch(arm64) || arch(arm)
            #expect(FileDescriptor.oDirect == 0o200000)
        #endif
        let compiler = ["/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        try #require(compiler != nil, "no C compiler to ask")
        let folder = NSTemporaryDirectory() + "runway-odirect-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try
            "#include <fcntl.h>\n#include <stdio.h>\nint main(void) { printf(\"%d\\n\", O_DIRECT); return 0; }\n"
            .write(toFile: folder + "/o_direct.c", atomically: true, encoding: .utf8)
        func run(_ tool: String, _ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try run(compiler!, ["-D_GNU_SOURCE", "-o", folder + "/o_direct", folder + "/o_direct.c"])
        #expect(try run(folder + "/o_direct", []) == String(FileDescriptor.oDirect))
    }
}
