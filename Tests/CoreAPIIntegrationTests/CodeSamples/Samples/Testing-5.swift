// Testing.md, sample 5.
import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@Test func fetchesAUserFromItsCassette() async throws {
    let cassette = Cassette(named: "fetchesAUser", in: cassettesFolder)
    let session = ApiSession(
        hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]),
        transport: try cassette.makeTransport(live: URLSessionTransport())
    )

    let user = try await session.perform(GetUser(id: 42))

    #expect(user.name == "Ada")
    try cassette.finish()
}
