// Testing.md, sample 2.
import CoreAPI
import CoreAPITesting
import Testing

@Test func reportsAMissingUser() async throws {
    let transport = StubTransport()
    transport.on("/users/*", reply: .json(#"{"message": "not found"}"#, statusCode: 404))
    let session = transport.makeSession(hosts: ["api": "https://api.test"])

    await #expect(throws: ApiError.self) {
        try await session.perform(GetUser(id: 7))
    }
}
