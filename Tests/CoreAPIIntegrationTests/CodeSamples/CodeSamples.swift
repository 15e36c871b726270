import CoreAPI
import CoreAPIJSON
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Every ```swift block of README.md and of the DocC articles appears here verbatim (indentation
// aside) and so is compiled; `CodeSamplesTests` checks that nothing in the documents is missing here.

// README.md and GettingStarted.md: the method and its response.
struct User: JsonApiResponse {
    let id: Int
    let name: String
}

struct GetUser: ApiMethod {
    typealias Response = User
    @Excluded var id: Int
    var hostProviderKey: String { "api" }
    var path: String { "/users/\(id)" }
}

// README.md and GettingStarted.md: performing it.
func performGetUserSample() async throws -> User {
    let session = ApiSession(hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]))
    let user = try await session.perform(GetUser(id: 42))
    return user
}

// GettingStarted.md: parameters.
struct SearchUsers: ApiMethod {
    typealias Response = [User]
    let query: String
    let limit: Int
    @Excluded var token: String
    var hostProviderKey: String { "api" }
    var path: String { "/users/search" }
    var headers: Headers { ["Authorization": "Bearer \(token)"] }
}

// GettingStarted.md: errors.
func handleErrorsSample(session: ApiSession) async {
    do {
        _ = try await session.perform(GetUser(id: 42))
    } catch let error as ApiError {
        switch error {
        case .unauthorized: print("sign in again")
        case .unacceptableStatus(let failure): print("HTTP \(failure.statusCode)")
        case .mapping(let failure): print("unexpected body: \(String(describing: failure.cause))")
        default: print(error)
        }
    } catch {
        print(error)
    }
}

// Environments.md.
func environmentsSample() throws -> (EnvironmentsHostProvider, ApiSession) {
    let hosts = try EnvironmentsHostProvider(
        environments: [
            "dev": ["api": "https://dev.example.com", "auth": "https://auth.dev.example.com"],
            "stage": ["api": "https://stage.example.com", "auth": "https://auth.stage.example.com"],
            "prod": ["api": "https://api.example.com", "auth": "https://auth.example.com"],
        ],
        current: "prod",
        environmentVariable: "EXAMPLE_ENVIRONMENT"
    )
    let session = ApiSession(hostProvider: hosts)
    try hosts.select("stage")
    return (hosts, session)
}

// Testing.md: these three run as tests.
@Test func fetchesAUser() async throws {
    let transport = StubTransport()
    transport.on(.get, "/users/42", reply: .json(#"{"id": 42, "name": "Ada"}"#))
    let session = transport.makeSession(hosts: ["api": "https://api.test"])

    let user = try await session.perform(GetUser(id: 42))

    #expect(user.name == "Ada")
    #expect(transport.requests.map(\.url.path) == ["/users/42"])
}

@Test func reportsAMissingUser() async throws {
    let transport = StubTransport()
    transport.on("/users/*", reply: .json(#"{"message": "not found"}"#, statusCode: 404))
    let session = transport.makeSession(hosts: ["api": "https://api.test"])

    await #expect(throws: ApiError.self) {
        try await session.perform(GetUser(id: 7))
    }
}

@Test func echoesThePath() async throws {
    let transport = StubTransport { request in .text("you asked for \(request.url.path)") }
    let session = transport.makeSession(hosts: ["api": "https://api.test"])

    let body = try await session.perform(GetGreeting())

    #expect(body == Data("you asked for /greeting".utf8))
}

/// Testing.md's text method.
struct GetGreeting: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/greeting")
    }
    func encode(to encoder: any Encoder) throws {}
}

// HowACallFlows.md: a transport wrapping another.
struct TracingTransport: Transport {
    let base: any Transport

    func send(_ request: EncodedRequest, options: TransportOptions) async throws -> RawResponse {
        var traced = request
        traced.request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Trace-ID")
        return try await base.send(traced, options: options)
    }
}

func makeTracingSession() -> ApiSession {
    let session = ApiSession(
        hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]),
        transport: TracingTransport(base: URLSessionTransport())
    )
    return session
}
