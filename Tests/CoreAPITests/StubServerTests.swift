import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct StubbedPing: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/ping")
    }

    func encode(to encoder: any Encoder) throws {}
}

/// `StubServer` routes through the URLSession path by a field no one above the transport sees.
@Suite(.timeLimit(.minutes(1)))
struct StubServerTests {
    @Test func theRoutingFieldShowsInNoHeadersLogOrRecording() async throws {
        let server = StubServer()
        server.on("/ping", reply: .text("pong"))
        let logs = LogCapture()
        let session = server.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            headers: ["X-Client": "tests"],
            middlewares: [logs.middleware(.debug)]
        )

        #expect(try await session.perform(StubbedPing()) == Data("pong".utf8))

        #expect(session.headers.map(\.name) == ["X-Client"])
        let logged = logs.records.map(\.message).joined(separator: "\n")
        #expect(logged.contains("$ curl"))
        #expect(!logged.lowercased().contains("stub-server"), "\(logged)")
        #expect(server.requests.first?.headers["X-Client"] == "tests")
        #expect(server.requests.first.map { $0.headers.contains { $0.name.lowercased().contains("stub") } } == false)
    }
}
