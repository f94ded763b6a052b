import Foundation

/// A loopback TCP server that is *not* a well-behaved gpsd: for the cases a real gpsd cannot be
/// made to produce (closing at once, garbage, silence, crafted reports). Each accepted connection
/// is served by `behaviour` on the server's own thread, then closed.
final class FakeGpsd: Sendable {
    enum Behaviour: Sendable {
        /// Accept and close at once.
        case closeAtOnce
        /// Send these bytes, then keep the connection open without a word until stopped.
        case send(String)
        /// gpsd's greeting, then these lines, then close.
        case greetThen([String])
    }

    static let greeting =
        #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"# + "\n"

    let port: UInt16
    private let listener: Int32
    private let stopPipe: (read: Int32, write: Int32)

    init(_ behaviour: Behaviour) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard ok else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        stopPipe = (fds[0], fds[1])
        let (listener, stop) = (fd, fds[0])
        let thread = Thread { Self.serve(listener: listener, stop: stop, behaviour: behaviour) }
        thread.start()
    }

    func stop() {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    deinit { stop() }

    private static func serve(listener: Int32, stop: Int32, behaviour: Behaviour) {
        defer { close(listener) }
        var open: [Int32] = []
        defer { for fd in open { close(fd) } }
        while true {
            var fds = [
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 2, -1) > 0, fds[1].revents == 0 else { return }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            switch behaviour {
            case .closeAtOnce:
                close(client)
            case .send(let text):
                send(text, to: client)
                open.append(client)
            case .greetThen(let lines):
                send(greeting + lines.map { $0 + "\n" }.joined(), to: client)
                usleep(200_000)
                close(client)
            }
        }
    }

    private static func send(_ text: String, to fd: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
