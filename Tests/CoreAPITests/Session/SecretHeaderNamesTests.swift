import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Start: ApiMethod {
    typealias Response = Data
    var path = "/start"
    var hostProviderKey: String { "api" }
    var headers: Headers {
        ["Authorization": "Bearer SECRET-TOKEN", "X-Api-Key": "KEY-SECRET", "Accept": "application/json"]
    }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }

    func encode(to encoder: any Encoder) throws {}
}

/// A secret header name is configured once, on the session's ``SessionPolicy``, however it is set:
/// it is stripped when a redirect leaves the origin and hidden in every log record and cURL line.
@Suite(.timeLimit(.minutes(1)))
struct SecretHeaderNamesTests {
    /// The ways a user can name `X-Api-Key` as secret.
    static let policies: [SessionPolicy] = {
        var insertedAfterInit = SessionPolicy()
        insertedAfterInit.secretHeaderNames.insert("x-API-Key")
        var assignedAfterInit = SessionPolicy()
        assignedAfterInit.secretHeaderNames = ["X-API-KEY"]
        return [SessionPolicy(secretHeaderNames: ["X-Api-Key"]), insertedAfterInit, assignedAfterInit]
    }()

    @Test(arguments: policies)
    func aConfiguredNameIsStrippedOnACrossOriginRedirect(policy: SessionPolicy) async throws {
        let transport = StubTransport()
        transport.on(
            "/start",
            reply: .status(302, headers: ["Location": "https://other.test/landing"])
        )
        transport.on("/landing", reply: .text("landed"))
        let session = transport.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            policy: policy
        )

        #expect(try await session.perform(Start()) == Data("landed".utf8))

        let hops = transport.requests
        #expect(hops.map(\.url.absoluteString) == ["https://api.test/start", "https://other.test/landing"])
        #expect(hops[0].headers["X-Api-Key"] == "KEY-SECRET")
        #expect(hops[1].headers["X-Api-Key"] == nil)
        #expect(hops[1].headers["Authorization"] == nil)
        #expect(hops[1].headers["Accept"] == "application/json")
    }

    @Test(arguments: policies)
    func aConfiguredNameIsKeptOnASameOriginRedirect(policy: SessionPolicy) async throws {
        let transport = StubTransport()
        transport.on("/start", reply: .status(307, headers: ["Location": "/landing"]))
        transport.on("/landing", reply: .text("landed"))
        let session = transport.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            policy: policy
        )

        _ = try await session.perform(Start())

        #expect(transport.requests.last?.headers["X-Api-Key"] == "KEY-SECRET")
        #expect(transport.requests.last?.headers["Authorization"] == "Bearer SECRET-TOKEN")
    }

    @Test(arguments: policies)
    func aConfiguredNameIsHiddenInEveryLogRecordAndCurlLine(policy: SessionPolicy) async throws {
        let transport = StubTransport()
        transport.on("/start", reply: .json(#"{"ok":true}"#, statusCode: 500))
        let logs = LogCapture()
        let session = transport.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            middlewares: [logs.middleware(.debug)],
            policy: policy
        )

        await #expect(throws: ApiError.self) { try await session.perform(Start()) }

        let text = logs.records.map(\.message).joined(separator: "\n")
        #expect(text.contains("$ curl"))
        #expect(text.contains("X-Api-Key"))
        #expect(!text.contains("KEY-SECRET"), "\(text)")
        #expect(!text.contains("SECRET-TOKEN"), "\(text)")
    }
}
