import Foundation
import RunWayCore

/// The control socket's client side (`runway status`, `start`, `pause`, `resume`, `stop`): one
/// request, one typed reply — or, subscribed, an event per line.
public final class ControlClient {
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case cannotConnect(path: String, errno: Int32)
        case noReply(path: String)
        /// The socket is there but this user may not use it (runwayd's socket is mode 0660, group
        /// runway): runwayd runs, this user is not in its group.
        case permissionDenied(path: String)

        public var description: String {
            switch self {
            case .permissionDenied(let path):
                "permission denied on runwayd's control socket \(path): it is for the group runway — "
                    + "add yourself (sudo usermod -aG runway \"$USER\") and log in again"
            case .cannotConnect(let path, let code):
                code == ENOENT || code == ECONNREFUSED
                    ? "runwayd is not running (no control socket at \(path)); systemctl status runwayd"
                    : "cannot reach runwayd at \(path): \(String(cString: strerror(code)))"
            case .noReply(let path): "runwayd at \(path) did not answer"
            }
        }
    }

    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []

    public init(path: String, timeout: Double = 5) throws(Failure) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw .cannotConnect(path: path, errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            if code == EACCES || code == EPERM { throw .permissionDenied(path: path) }
            throw .cannotConnect(path: path, errno: code)
        }
        if timeout > 0 {
            var value = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    deinit { close(fd) }

    /// Sends one request and returns runwayd's reply.
    public func request(_ request: ControlRequest) throws(Failure) -> ControlResponse {
        send(request.line)
        guard let reply = nextLine().flatMap(ControlResponse.init(line:)) else { throw .noReply(path: path) }
        return reply
    }

    /// The next event after a `subscribe`; nil when the daemon closed or went quiet past the
    /// timeout. A line that is no JSON object ends the stream too, as it always has.
    public func nextEvent() -> ControlEvent? { nextLine().flatMap(ControlEvent.init(line:)) }

    private func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, without its newline; nil when the daemon closed or went quiet.
    private func nextLine() -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return nil }
            buffer += chunk.prefix(n)
        }
    }
}
