import CLinux
import Glibc

/// poll(2), called again with the same timeout when a signal interrupts it.
public enum Poll {
    /// Waits until one of `fds` has an event or `timeout` milliseconds pass (-1: without end);
    /// the number of entries with events, 0 on a timeout.
    @discardableResult
    public static func wait(_ fds: inout [pollfd], timeout: Int32) throws(Errno) -> Int {
        let count = nfds_t(fds.count)
        let result = fds.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(Errno) in
                try Errno.retryingInterrupts { poll(buffer.baseAddress, count, timeout) }
            }
        }
        return Int(try result.get())
    }

    /// What `readable` found first.
    public enum Readable: Sendable, Equatable {
        case timedOut
        /// The first descriptor is readable, hung up or in error.
        case first
        /// The second descriptor has an event (and the first none).
        case second
        case failed(Errno)
    }

    /// Waits for `first` (nil: none) or `second` to become readable, up to `timeout`
    /// milliseconds (-1: without end).
    public static func readable(_ first: Int32?, _ second: Int32, timeout: Int32) -> Readable {
        var fds = [first, second].compactMap { $0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        do throws(Errno) {
            guard try wait(&fds, timeout: timeout) > 0 else { return .timedOut }
        } catch {
            return .failed(error)
        }
        if first != nil, fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { return .first }
        return .second
    }
}

/// A wake-up one thread sends another that waits in `poll`: an eventfd (non-blocking,
/// close-on-exec), safe to signal from any thread. A thread that waits on other descriptors
/// too polls `fd` with them.
public final class WakeSignal: Sendable {
    public let fd: Int32

    /// Traps when the kernel gives no eventfd (the process is out of descriptors): a waiter on a
    /// descriptor that is not there would sleep for ever, and nothing can run without it.
    public init() {
        fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(fd >= 0, "no eventfd for a wake-up: \(Errno.current)")
    }

    /// Wakes the waiter (a signal sent while nobody waits is kept until the next wait).
    public func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { try? FileDescriptor(rawValue: fd).write($0) }
    }

    /// Consumes the signals sent so far (none: nothing happens).
    public func drain() {
        var count: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &count) { try? FileDescriptor(rawValue: fd).read(into: $0) }
    }

    /// Waits up to `milliseconds` (-1: without end) for a signal, on the monotonic clock; returns
    /// whether one came (and consumes it).
    @discardableResult
    public func wait(milliseconds: Int32) -> Bool {
        guard Poll.readable(nil, fd, timeout: milliseconds) == .second else { return false }
        drain()
        return true
    }

    /// Waits up to `milliseconds` (-1: without end), then consumes whatever signal was sent: a
    /// sleep that a signal cuts short, for a loop that looks at its state after every wake-up.
    public func sleep(milliseconds: Int32) {
        _ = Poll.readable(nil, fd, timeout: milliseconds)
        drain()
    }

    deinit { close(fd) }
}
