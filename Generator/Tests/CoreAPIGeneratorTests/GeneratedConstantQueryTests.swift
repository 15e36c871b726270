import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@testable import GoldenFeatures

/// Path keys of Features.yaml that carry a query (`/flags?beta=true`): the path is the part before `?`, and
/// its pairs are sent on every call, beside the method's own parameters and body.
@Suite("Generated module: a query in the path key")
struct GeneratedConstantQueryTests {
    let transport = StubTransport()
    var session: ApiSession { transport.makeSession(hosts: [FeaturesHost.key: "https://api.test/v1"]) }

    @Test("A GET sends the path's pairs, then its query parameters, below an encoded path parameter")
    func getWithQueryParameters() async throws {
        transport.on(.get, "/v1/flags/*", reply: .json(#"{"name":"dark-mode"}"#))
        let flag = try await session.perform(GetFlag(flagId: "a/b", locale: "fr CA"))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test/v1/flags/a%2Fb?beta=true&view=full&locale=fr%20CA")
        #expect(flag.name == "dark-mode")
        _ = try await session.perform(GetFlag(flagId: "x"))
        #expect(transport.requests.last?.url.absoluteString == "https://api.test/v1/flags/x?beta=true&view=full")
    }

    @Test("A POST with a JSON body and a query parameter keeps the path's pair in its URL")
    func postWithJSONBody() async throws {
        transport.on(.post, "/v1/flags", reply: .status(204))
        _ = try await session.perform(CreateFlag(dryRun: true, requestBody: Settings(name: "beta")))
        _ = try await session.perform(CreateFlag(requestBody: Settings(name: "beta")))
        let urls = transport.requests.map(\.url.absoluteString)
        #expect(urls == ["https://api.test/v1/flags?beta=true&dryRun=true", "https://api.test/v1/flags?beta=true"])
        let request = try #require(transport.requests.first)
        #expect(request.headers["Content-Type"] == "application/json")
        let body = try JSONDecoder().decode(Settings.self, from: try #require(request.body))
        #expect(body.name == "beta")
    }

    @Test("A method with only a JSON body sends the path's pair in its URL, not in the body")
    func deleteWithJSONBody() async throws {
        transport.on(.delete, "/v1/flags", reply: .status(204))
        _ = try await session.perform(ClearFlags(requestBody: Settings(name: "all")))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test/v1/flags?beta=true")
        let body = try JSONDecoder().decode(Settings.self, from: try #require(request.body))
        #expect(body.name == "all")
    }
}
