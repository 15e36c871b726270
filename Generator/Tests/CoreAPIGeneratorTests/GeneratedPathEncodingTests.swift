import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@testable import GoldenFeatures

/// Path parameters of the module generated from Features.yaml: a value is always one path segment.
@Suite("Generated module: path parameters")
struct GeneratedPathEncodingTests {
    let transport = StubTransport()
    var session: ApiSession { transport.makeSession(hosts: [FeaturesHost.key: "https://api.test/v1"]) }

    @Test(
        "A reserved character in a path parameter is percent-encoded, so the value stays one segment",
        arguments: [
            ("a/b", "/v1/files/a%2Fb"),
            ("a?b=1", "/v1/files/a%3Fb=1"),
            ("#top", "/v1/files/%23top"),
            ("100%", "/v1/files/100%25"),
            ("é ü", "/v1/files/%C3%A9%20%C3%BC"),
            ("a:b@c;d,e+f", "/v1/files/a:b@c;d,e+f"),
            ("...", "/v1/files/..."),
        ]
    )
    func encodesSegment(name: String, path: String) async throws {
        transport.on(.get, "/v1/files/*", reply: .text("hello"))
        let text = try await session.perform(GetFile(name: name))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test" + path)
        #expect(text.value == "hello")
    }

    @Test("With a body, the query is added after the encoded path")
    func encodedPathWithQuery() async throws {
        transport.on(.put, "/v1/files/*", reply: .status(204))
        _ = try await session.perform(PutFile(name: "notes/2024.txt", overwrite: true, requestBody: "text"))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test/v1/files/notes%2F2024.txt?overwrite=true")
        #expect(request.bodyText == "text")
        #expect(request.headers["Content-Type"] == "text/plain")
    }

    @Test("A `.` or `..` value is refused before anything is sent", arguments: [".", ".."])
    func dotSegment(name: String) async throws {
        await #expect {
            try await session.perform(GetFile(name: name))
        } throws: { error in
            guard case .invalidRequest(.invalidURL(let reason)) = error as? ApiError else { return false }
            return reason.contains("segments")
        }
        #expect(transport.requests.isEmpty)
    }

    @Test("A host's base path is kept below an encoded path")
    func basePath() async throws {
        let session = transport.makeSession(hosts: [FeaturesHost.key: "https://api.test/base/v1/"])
        transport.on(.get, "/base/v1/files/*", reply: .text("x"))
        _ = try await session.perform(GetFile(name: "a/b"))
        #expect(transport.requests.first?.url.absoluteString == "https://api.test/base/v1/files/a%2Fb")
    }

    @Test("A path too long for one line is joined from its literals; a long-named error body is decoded")
    func longPathAndErrorName() async throws {
        typealias Failure = ServiceAccountKeyLookupFailureWithANameLongerThanTheLineOfItsDeclarationAllows
        let method = GetServiceAccountKey(organizationId: "o/1", projectId: "p", serviceAccountId: "s", keyId: "k")
        transport.on(.get, "/v1/organizations/*", reply: .text("key"))
        #expect(try await session.perform(method) == "key")
        let url = "https://api.test/v1/organizations/o%2F1/projects/p/service-accounts/s/keys/k"
        #expect(transport.requests.first?.url.absoluteString == url)
        for status in [404, 503] {
            let stub = StubTransport()
            stub.on(.get, "/v1/organizations/*", reply: .json(#"{"reason":"gone"}"#, statusCode: status))
            let session = stub.makeSession(hosts: [FeaturesHost.key: "https://api.test/v1"])
            await #expect(throws: FeaturesStatusError(status: status, body: Failure(reason: "gone"))) {
                try await session.perform(method)
            }
        }
    }
}
