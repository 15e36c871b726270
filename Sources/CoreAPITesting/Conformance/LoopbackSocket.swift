#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket on the loopback interface, over the system's POSIX calls: the few operations the
/// conformance server needs, each a thin shell over one call.
struct LoopbackSocket: Sendable {
    /// What a wait for input ended with.
    enum Wait {
        /// Bytes (or the peer's close) can be read.
        case readable
        /// The server is stopping.
        case stopped
        /// The time passed with nothing to read.
        case timedOut
    }

    let descriptor: Int32

    /// A socket bound to 127.0.0.1 on a port the system picks, listening when `listens` is `true`, and
    /// that port.
    static func bound(listens: Bool) throws(ConformanceServer.StartFailure) -> (LoopbackSocket, Int) {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw .system(call: "socket", code: errno) }
        let socket = LoopbackSocket(descriptor: descriptor)
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound, !listens || listen(descriptor, 128) == 0 else {
            let code = errno
            socket.close()
            throw .system(call: "bind", code: code)
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A connection to 127.0.0.1 at `port`; `nil` when it is refused.
    static func connect(port: Int) -> LoopbackSocket? {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                #if canImport(Glibc)
                    Glibc.connect(descriptor, raw, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                #else
                    Darwin.connect(descriptor, raw, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                #endif
            }
        }
        guard connected else {
            LoopbackSocket(descriptor: descriptor).close()
            return nil
        }
        return LoopbackSocket(descriptor: descriptor)
    }

    /// The next connection of a listening socket, with Nagle's delay off; `nil` when accepting failed.
    func accept() -> LoopbackSocket? {
        #if canImport(Glibc)
            let accepted = Glibc.accept(descriptor, nil, nil)
        #else
            let accepted = Darwin.accept(descriptor, nil, nil)
        #endif
        guard accepted >= 0 else { return nil }
        var yes: Int32 = 1
        setsockopt(accepted, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(accepted, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return LoopbackSocket(descriptor: accepted)
    }

    /// Waits until the socket can be read, `wake` (the server's stop signal) can, or `milliseconds`
    /// pass (`-1`: no limit).
    func wait(wake: Int32, milliseconds: Int32 = -1) -> Wait {
        Self.poll([descriptor, wake], milliseconds: milliseconds)
    }

    /// Waits for `descriptors`: `.readable` when the first can be read, `.stopped` when the last can.
    static func poll(_ descriptors: [Int32], milliseconds: Int32) -> Wait {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            #if canImport(Glibc)
                let count = Glibc.poll(&entries, nfds_t(entries.count), milliseconds)
            #else
                let count = Darwin.poll(&entries, nfds_t(entries.count), milliseconds)
            #endif
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return count == 0 ? .timedOut : .stopped }
            if entries.last!.revents != 0 { return .stopped }
            return .readable
        }
    }

    /// Reads what has arrived, at most `capacity` bytes; empty at the peer's close or on an error.
    func receive(capacity: Int = 64 * 1024) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: capacity)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, capacity, 0) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Writes every byte of `bytes`; `false` when the peer went away first.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                #if canImport(Glibc)
                    Glibc.send(descriptor, raw.baseAddress! + sent, bytes.count - sent, flags)
                #else
                    Darwin.send(descriptor, raw.baseAddress! + sent, bytes.count - sent, flags)
                #endif
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Ends both directions, which wakes a thread blocked reading or writing it.
    func shutdown() {
        #if canImport(Glibc)
            _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        #else
            _ = Darwin.shutdown(descriptor, SHUT_RDWR)
        #endif
    }

    /// Releases the descriptor.
    func close() {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
