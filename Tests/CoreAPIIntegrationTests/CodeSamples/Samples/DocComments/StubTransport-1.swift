// StubTransport.swift, sample 1: statements, in the body of a function.
import CoreAPI
import CoreAPITesting
import Testing

private func sample() async throws -> User {
    let transport = StubTransport()
    transport.on(.get, "/users/42", reply: .json(#"{"id": 42, "name": "Ada"}"#))
    let session = transport.makeSession(hosts: ["api": "https://api.test"])
    let user = try await session.perform(GetUser(id: 42))
    #expect(transport.requests.count == 1)
    return user
}
