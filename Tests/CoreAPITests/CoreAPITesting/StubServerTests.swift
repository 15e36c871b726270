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

private struct StubbedUpload: ApiMethod {
    typealias Response = Data
    @Excluded var payload: RequestBody
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var body: RequestBody? { payload }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/upload")
    }
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

    /// On Linux the transport hands a body to URLSession as a stream, with a `Transfer-Encoding` field of
    /// blank value that only chooses libcurl's framing: the stub records the body, and not that field.
    @Test func aBodyIsRecordedWithoutTheTransportsFramingField() async throws {
        let server = StubServer()
        server.on("/upload", reply: .text("ok"))
        let session = server.makeSession(hostProvider: DictionaryHostProvider(["api": "https://api.test"]))

        _ = try await session.perform(StubbedUpload(payload: .data(Data("abc".utf8), contentType: "text/plain")))

        let recorded = try #require(server.requests.first)
        #expect(recorded.bodyText == "abc")
        #expect(recorded.headers["Content-Type"] == "text/plain")
        #expect(recorded.headers["Transfer-Encoding"] == nil)
    }
}
