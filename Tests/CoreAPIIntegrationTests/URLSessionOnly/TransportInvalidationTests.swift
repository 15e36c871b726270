import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET /held?ms=N` on the connection-counting server: answered after N milliseconds, so calls made
/// together need a connection each.
private struct HeldGet: ApiMethod {
    typealias Response = Data
    let ms: Int
    var hostProviderKey: String { "counting" }
    var options: CallOptions { CallOptions(timeout: .seconds(30)) }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/held")
    }
}

/// What closes a URLSession transport's connections: ``URLSessionTransport/invalidate()`` (directly or
/// through the session that made the transport) while the transport is still held, and letting the
/// transport go. FoundationNetworking closes connections only when its `URLSession` is freed.
@Suite(.timeLimit(.minutes(1)))
struct TransportInvalidationTests {
    enum Invalidation: String, CaseIterable, CustomTestStringConvertible {
        /// `URLSessionTransport.invalidate()` on a transport passed to the session.
        case transport
        /// `ApiSession.invalidate()` on a session that made its own transport.
        case session

        var testDescription: String { rawValue }
    }

    /// Four calls at once open four connections (the server holds each answer 300 ms); they stay open,
    /// kept alive, after the calls end.
    private func openConnections(with session: ApiSession, on server: ConnectionCountingServer) async throws {
        try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<4 {
                group.addTask { try await session.perform(HeldGet(ms: 300)) }
            }
            for try await body in group {
                #expect(body == Data("{}".utf8))
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.openConnections >= 2, "calls made together shared one connection")
    }

    @Test(arguments: Invalidation.allCases)
    func invalidateClosesTheConnectionsWhileTheTransportLives(_ invalidation: Invalidation) async throws {
        let server = try ConnectionCountingServer()
        defer { server.stop() }
        let hosts = DictionaryHostProvider(["counting": server.baseURL])
        let transport = URLSessionTransport()
        let session =
            invalidation == .transport
            ? ApiSession(hostProvider: hosts, transport: transport) : ApiSession(hostProvider: hosts)
        try await openConnections(with: session, on: server)

        switch invalidation {
        case .transport: transport.invalidate()
        case .session: session.invalidate()
        }
        try await waitUntil(timeout: .seconds(20)) { server.openConnections == 0 }
        #expect(server.openConnections == 0, "\(server.openConnections) connections still open after invalidate()")

        // The transport (and the session) are still alive: later calls fail at once, and connect nowhere.
        let accepted = server.acceptedConnections
        await #expect(throws: ApiError.invalidRequest(.sessionInvalidated)) {
            try await session.perform(HeldGet(ms: 0))
        }
        #expect(server.acceptedConnections == accepted)
        withExtendedLifetime((transport, session)) {}
    }

    /// A transport let go without `invalidate()` lets its tasks finish, then closes its connections.
    @Test func releasingTheTransportClosesTheConnections() async throws {
        let server = try ConnectionCountingServer()
        defer { server.stop() }
        do {
            let session = ApiSession(
                hostProvider: DictionaryHostProvider(["counting": server.baseURL]),
                transport: URLSessionTransport()
            )
            try await openConnections(with: session, on: server)
        }
        try await waitUntil(timeout: .seconds(20)) { server.openConnections == 0 }
        #expect(server.openConnections == 0, "\(server.openConnections) connections still open")
    }
}
