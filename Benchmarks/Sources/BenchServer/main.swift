// A minimal HTTP/1.1 server on 127.0.0.1 for the loopback benchmarks.
//
// It listens on an ephemeral port, prints the port on standard output, and serves each connection on a
// thread of its own with keep-alive. `GET` (and any other request) gets a fixed small JSON body, `GET
// /notes/...` a note of the same size; `POST /upload` reads and counts the body and answers with the
// count; `GET /bytes/N` answers N bytes. It runs in a process of its own so
// that its CPU time is not part of the client's measurements, and it exits when its standard input
// closes, so it never outlives the benchmark that started it.

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens the listening socket on 127.0.0.1 with an ephemeral port and returns it with the port.
func makeListener() -> (socket: Int32, port: UInt16) {
    #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard listener >= 0 else { fail("socket") }
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0 else { fail("bind") }
    guard listen(listener, 256) == 0 else { fail("listen") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    guard named == 0 else { fail("getsockname") }
    return (listener, UInt16(bigEndian: address.sin_port))
}

/// Prints what failed with `errno` and exits with status 1.
func fail(_ call: String) -> Never {
    let reason = String(cString: strerror(errno))
    FileHandle.standardError.write(Data("BenchServer: \(call) failed: \(reason)\n".utf8))
    exit(1)
}

/// Exits once standard input reaches its end: the process that started the server has closed its end of
/// the pipe, or has ended.
func exitWhenStandardInputCloses() {
    Thread.detachNewThread {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 0 || (count < 0 && errno != EINTR) {
                exit(0)
            }
        }
    }
}

// Descriptors inherited from the starting process (beyond the standard three) are not the server's.
for descriptor in 3..<4096 {
    close(Int32(descriptor))
}
/// An empty signal mask: a blocked `SIGTERM` (the mask is inherited) would keep the server from ending.
var noSignals = sigset_t()
sigemptyset(&noSignals)
sigprocmask(SIG_SETMASK, &noSignals, nil)
signal(SIGTERM, SIG_DFL)
signal(SIGPIPE, SIG_IGN)
/// The listening socket and its port.
let (listener, port) = makeListener()
/// The first and only line the server prints: its port.
let announcement = Array("\(port)\n".utf8)
guard write(STDOUT_FILENO, announcement, announcement.count) == announcement.count else { fail("write") }
exitWhenStandardInputCloses()

while true {
    let client = accept(listener, nil, nil)
    guard client >= 0 else {
        if errno == EINTR || errno == ECONNABORTED { continue }
        fail("accept")
    }
    var noDelay: Int32 = 1
    setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    Thread.detachNewThread {
        var connection = Connection(socket: client)
        connection.serve()
    }
}
