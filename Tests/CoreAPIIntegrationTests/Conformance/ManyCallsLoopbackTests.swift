import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// `/concurrent/<name>?ms=<ms>`: counted in flight by the fixture while it waits.
private struct Counted: ApiMethod, Hashable {
    typealias Response = Data
    @Excluded var name: String
    let ms: Int
    var hostProviderKey: String { "fixture" }
    var path: String { "/concurrent/\(name)" }
    var options: CallOptions { CallOptions(callKey: CallKey(name)) }
}

/// The same, sharing identical calls in flight.
private struct SharedCounted: ApiMethod, Hashable {
    typealias Response = Data
    @Excluded var name: String
    let ms: Int
    var hostProviderKey: String { "fixture" }
    var path: String { "/concurrent/\(name)" }
    var options: CallOptions { CallOptions(sharesIdenticalCalls: true) }
}

/// Calls in bulk and in flight over real HTTP, on every transport, counted by the server.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(1)))
    struct ManyCallsLoopbackTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        /// Twenty calls with a limit of three: the server never sees more than three at once, and sees
        /// all twenty.
        @Test(arguments: TestTransport.underTest)
        func aBatchKeepsToItsLimit(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("batch")
            let methods = (0..<20).map { _ in Counted(name: name, ms: 100) }
            let outputs = try await session.performAll(methods, mode: .concurrent(limit: 3))
            #expect(outputs.count == 20)
            let seen = try server.concurrency(name: name)
            #expect(seen.hits == 20)
            #expect((2...3).contains(seen.mostInFlight))  // 3 but for a slow start; never more
        }

        /// A hundred identical calls at once reach the server once, and all get its answer.
        @Test(arguments: TestTransport.underTest)
        func identicalCallsReachTheServerOnce(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let name = uniqueName("shared")
            let bodies = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await session.perform(SharedCounted(name: name, ms: 1_500)) }
                }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            #expect(bodies.count == 100)
            #expect(Set(bodies).count == 1)
            #expect(try server.concurrency(name: name).hits == 1)
        }

        /// Cancelling the calls of one key ends them at once and leaves the others to finish.
        @Test(arguments: TestTransport.underTest)
        func cancellingByKeyLeavesTheOtherCalls(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let (dropped, kept) = (uniqueName("dropped"), uniqueName("kept"))
            let droppedCalls = (0..<3).map { _ in Task { try await session.perform(Counted(name: dropped, ms: 30_000)) }
            }
            let keptCall = Task { try await session.perform(Counted(name: kept, ms: 300)) }
            try await waitUntil { [server] in
                ((try? server.concurrency(name: dropped).hits) ?? 0) >= 3
                    && ((try? server.concurrency(name: kept).hits) ?? 0) >= 1
            }
            let started = ContinuousClock.now
            #expect(session.cancelCalls(withKey: CallKey(dropped)) == 3)
            for call in droppedCalls {
                let error = await #expect(throws: ApiError.self) { try await call.value }
                #expect(error == .cancelled)
            }
            #expect(ContinuousClock.now - started < .seconds(10))  // not the 30 s the server takes
            let body = try await keptCall.value
            #expect(String(decoding: body, as: UTF8.self).contains(#""name": "\#(kept)""#))
        }
    }
}
