// Testing.md, sample 1.
import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@Test func fetchesAUser() async throws {
    let transport = StubTransport()
    transport.on(.get, "/users/42", reply: .json(#"{"id": 42, "name": "Ada"}"#))
    let session = transport.makeSession(hosts: ["api": "https://api.test"])

    let user = try await session.perform(GetUser(id: 42))

    #expect(user.name == "Ada")
    #expect(transport.requests.map(\.url.path) == ["/users/42"])
}
