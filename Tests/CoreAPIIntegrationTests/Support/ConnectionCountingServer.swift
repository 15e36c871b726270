import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A loopback HTTP/1.1 server on plain sockets that counts the connections its clients hold open.
///
/// It listens on 127.0.0.1 with an ephemeral port and serves each connection on a thread of its own:
/// every request (a head without a body) is answered `200` with `{}` on a kept-alive connection, after
/// the milliseconds a `?ms=N` query asks for. A connection counts as open until the client closes its end
/// (a read returns 0 or fails), so a connection the client leaves open, or half-closed, stays counted.
final class ConnectionCountingServer: Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: Int32
    private let connections = OpenConnections()

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// How many connections are open: accepted, and not closed by the client yet.
    var openConnections: Int { connections.open }

    /// How many connections were accepted in all.
    var acceptedConnections: Int { connections.accepted }

    /// Starts a server.
    init() throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw ServerFailure("socket: \(errno)") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw ServerFailure("bind/listen: \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptConnections() }
        thread.start()
    }

    /// Stops listening and closes every connection.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        connections.shutDownAll()
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            var yes: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            connections.opened(connection)
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    /// Answers the requests of `connection` until the client closes it.
    private func serve(_ connection: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { connections.close(connection) }
        while true {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else {
                if count < 0, errno == EINTR { continue }
                return
            }
            received += buffer[0..<count]
            while let end = Self.endOfHead(in: received) {
                let head = String(decoding: received[0..<end], as: UTF8.self)
                received.removeFirst(end)
                if let milliseconds = Self.delay(in: head) {
                    usleep(UInt32(milliseconds) * 1000)
                }
                let response = Array(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".utf8
                )
                guard write(connection, response, response.count) == response.count else { return }
            }
        }
    }

    /// The length of the request head at the start of `bytes`, its blank line included.
    private static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index - 3] == 13 && bytes[index - 2] == 10 && bytes[index - 1] == 13 && bytes[index] == 10 {
            return index + 1
        }
        return nil
    }

    /// The `ms` of the request line's query, if any.
    private static func delay(in head: String) -> Int? {
        guard let line = head.split(separator: "\r\n").first, let query = line.split(separator: "?").dropFirst().first
        else { return nil }
        let value = query.split(separator: " ").first?.split(separator: "&").first { $0.hasPrefix("ms=") }
        return value.flatMap { Int($0.dropFirst(3)) }
    }

    /// A failure to start the server.
    struct ServerFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// The server's open connections, behind a lock: a descriptor is closed under it, so ``shutDownAll()``
/// never reaches a descriptor the process has reused for something else.
private final class OpenConnections: @unchecked Sendable {  // every access holds `lock`
    private let lock = NSLock()
    private var descriptors: Set<Int32> = []
    private var acceptedCount = 0

    var open: Int { lock.withLock { descriptors.count } }
    var accepted: Int { lock.withLock { acceptedCount } }

    func opened(_ descriptor: Int32) {
        lock.withLock {
            descriptors.insert(descriptor)
            acceptedCount += 1
        }
    }

    func close(_ descriptor: Int32) {
        lock.withLock {
            descriptors.remove(descriptor)
            closeDescriptor(descriptor)
        }
    }

    func shutDownAll() {
        lock.withLock {
            for descriptor in descriptors {
                shutdown(descriptor, Int32(SHUT_RDWR))
            }
        }
    }
}

/// Closes `descriptor` (a free function, so `close` is the system's).
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
