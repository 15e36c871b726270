import CoreAPI
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The HTTP/1.1 server of ``TransportConformance``: two listeners on 127.0.0.1, each on a port the
/// system picks — two origins — serving the routes of `ConformanceServer+Routes.swift`, one thread per
/// connection.
///
/// ``stop()`` wakes every thread (a pipe every wait also polls, and a shutdown of every open
/// connection), waits for all of them to end and closes every descriptor it opened, so nothing is left
/// behind; a stall that the client does not end lasts ``stallSeconds`` at most.
final class ConformanceServer: @unchecked Sendable {  // its mutable state lives in `state`, under that lock
    /// Why the server could not start.
    enum StartFailure: Error, CustomStringConvertible {
        case system(call: String, code: Int32)

        var description: String {
            switch self {
            case .system(let call, let code): "the conformance server's \(call) failed with errno \(code)"
            }
        }
    }

    private struct State {
        var isStopping = false
        var connections: [Int32: LoopbackSocket] = [:]
        var liveThreads = 0
        var arrivals: [String] = []
    }

    /// How long a stalled exchange waits before the server closes it.
    static let stallSeconds = 30

    /// The first origin's port.
    let port: Int
    /// The second origin's port: the same address, another listener.
    let otherPort: Int
    /// The first origin, `http://127.0.0.1:<port>`.
    var baseURL: String { "http://127.0.0.1:\(port)" }
    /// The second origin.
    var otherBaseURL: String { "http://127.0.0.1:\(otherPort)" }

    private let listeners: [LoopbackSocket]
    /// A pipe nobody reads: its write end gets one byte at ``stop()``, and from then on every wait that
    /// polls the read end returns at once.
    let wakeRead: Int32
    private let wakeWrite: Int32
    private let threads = DispatchGroup()
    private let state = LockedValue(State())

    /// Starts both listeners.
    /// - Throws: ``StartFailure`` when a socket or the pipe cannot be made.
    init() throws(StartFailure) {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw .system(call: "pipe", code: errno) }
        wakeRead = pipeEnds[0]
        wakeWrite = pipeEnds[1]
        let first: (LoopbackSocket, Int)
        let second: (LoopbackSocket, Int)
        do {
            first = try LoopbackSocket.bound(listens: true)
        } catch {
            _ = close(pipeEnds[0])
            _ = close(pipeEnds[1])
            throw error
        }
        do {
            second = try LoopbackSocket.bound(listens: true)
        } catch {
            first.0.close()
            _ = close(pipeEnds[0])
            _ = close(pipeEnds[1])
            throw error
        }
        listeners = [first.0, second.0]
        port = first.1
        otherPort = second.1
        for (listener, port) in [first, second] {
            spawn { self.accept(on: listener, port: port) }
        }
    }

    /// Stops the server: every thread ends, every connection and listener is closed. Waits for them;
    /// calling it again does nothing.
    func stop() {
        let open = state.withLock { state -> [LoopbackSocket]? in
            guard !state.isStopping else { return nil }
            state.isStopping = true
            return Array(state.connections.values)
        }
        guard let open else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        state.withLock { state in
            // Under the lock, so that no descriptor is shut after its thread closed it and it was reused.
            for connection in open where state.connections[connection.descriptor] != nil {
                connection.shutdown()
            }
        }
        threads.wait()
        for listener in listeners {
            listener.close()
        }
        _ = close(wakeRead)
        _ = close(wakeWrite)
    }

    /// Whether ``stop()`` has run to its end: no thread of the server runs and no connection is open.
    var isIdle: Bool {
        state.withLock { $0.isStopping && $0.liveThreads == 0 && $0.connections.isEmpty }
    }

    /// Whether a request whose target contains `marker` has arrived.
    func hasReceived(_ marker: String) -> Bool {
        state.withLock { $0.arrivals.contains { $0.contains(marker) } }
    }

    /// Runs `work` on a thread of its own, counted until it returns.
    private func spawn(_ work: @escaping @Sendable () -> Void) {
        threads.enter()
        state.withLock { $0.liveThreads += 1 }
        let thread = Thread {
            work()
            self.state.withLock { $0.liveThreads -= 1 }
            self.threads.leave()
        }
        thread.start()
    }

    private func accept(on listener: LoopbackSocket, port: Int) {
        while listener.wait(wake: wakeRead) == .readable {
            guard let connection = listener.accept() else { continue }
            let admitted = state.withLock { state -> Bool in
                guard !state.isStopping else { return false }
                state.connections[connection.descriptor] = connection
                return true
            }
            guard admitted else {
                connection.close()
                return
            }
            spawn { self.serve(connection, port: port) }
        }
    }

    private func serve(_ connection: LoopbackSocket, port: Int) {
        var reader = RequestReader(socket: connection, wake: wakeRead)
        while let request = reader.next() {
            state.withLock { $0.arrivals.append(request.target) }
            guard respond(to: request, on: connection, port: port),
                request.value(of: "Connection")?.lowercased() != "close"
            else { break }
        }
        state.withLock { state in
            state.connections[connection.descriptor] = nil
            connection.close()
        }
    }
}
