import BenchClients
import BenchSupport
import Synchronization

/// A server process and the clients of one benchmark, made in its setup and ended in its teardown.
final class LoopbackFixture: Sendable {
    /// The client kinds this fixture makes, in order.
    let kinds: [ClientKind]
    /// The running server and the clients, between setup and teardown.
    private let state = Mutex<(server: BenchServerProcess, clients: [any LoopbackClient])?>(nil)

    /// A fixture for `kinds`; nothing starts until ``setUp()``.
    init(kinds: [ClientKind]) {
        self.kinds = kinds
    }

    /// Starts the server, makes the clients and checks one exchange of each.
    func setUp() async throws {
        let server = try BenchServerProcess.start()
        let clients = kinds.map { $0.makeClient(baseURL: server.baseURL) }
        state.withLock { $0 = (server, clients) }
        for client in clients {
            let user = try await client.fetch()
            guard user == TinyUser.expected else {
                throw BenchServerError(description: "unexpected answer \(user)")
            }
        }
    }

    /// The clients, in the order of ``kinds``; only valid between ``setUp()`` and ``tearDown()``.
    var clients: [any LoopbackClient] {
        state.withLock { $0?.clients ?? [] }
    }

    /// Releases the clients and stops the server.
    func tearDown() {
        let ended = state.withLock { current in
            defer { current = nil }
            return current
        }
        ended?.clients.forEach { $0.shutdown() }
        ended?.server.stop()
    }
}

/// Performs `count` fetches with at most `inFlight` at a time (one after another when `inFlight` is 1).
func fetch(_ count: Int, inFlight: Int, with client: any LoopbackClient) async throws {
    guard inFlight > 1 else {
        for _ in 0..<count {
            _ = try await client.fetch()
        }
        return
    }
    try await withThrowingTaskGroup(of: TinyUser.self) { group in
        var started = 0
        while started < min(inFlight, count) {
            group.addTask { try await client.fetch() }
            started += 1
        }
        while try await group.next() != nil {
            if started < count {
                group.addTask { try await client.fetch() }
                started += 1
            }
        }
    }
}

/// The process CPU time, in microseconds, of `count` fetches by each of two clients, run in alternating
/// blocks of 100 (first, second, second, first, …) so that changes in the machine's speed, which on a
/// shared virtual machine can be large and last seconds, affect both alike.
func pairedCPU(
    _ count: Int,
    inFlight: Int,
    first: any LoopbackClient,
    second: any LoopbackClient
) async throws -> (first: Int, second: Int) {
    var totals = (first: 0, second: 0)
    let block = 100
    for round in 0..<max(count / block, 1) {
        for useFirst in round.isMultiple(of: 2) ? [true, false] : [false, true] {
            let start = processCPUNanoseconds()
            try await fetch(block, inFlight: inFlight, with: useFirst ? first : second)
            let spent = (processCPUNanoseconds() - start) / 1000
            if useFirst {
                totals.first += spent
            } else {
                totals.second += spent
            }
        }
    }
    return totals
}
