// Testing.md, sample 3.
import CoreAPI
import CoreAPITesting
import Foundation
import Testing

struct GetGreeting: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/greeting" }
}

@Test func echoesThePath() async throws {
    let transport = StubTransport { request in .text("you asked for \(request.url.path)") }
    let session = transport.makeSession(hosts: ["api": "https://api.test"])

    let body = try await session.perform(GetGreeting())

    #expect(body == Data("you asked for /greeting".utf8))
}
