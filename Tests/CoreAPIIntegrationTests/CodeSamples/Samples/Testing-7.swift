// Testing.md, sample 7.
import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@Test func anUnrecordedRequestNamesTheClosestEntry() async throws {
    let player = try Cassette.Player(
        contentsOf: cassettesFolder.appendingPathComponent("fetchesAUser.har"),
        matchers: Cassette.Matcher.defaults + [.headers(["Accept"])]
    )
    let hosts = DictionaryHostProvider(["api": "https://api.example.com"])
    let session = ApiSession(hostProvider: hosts, transport: player)

    let error = await #expect(throws: ApiError.self) { try await session.perform(GetUser(id: 7)) }

    // No entry of the cassette answers GET https://api.example.com/users/7
    //   closest: #0 GET /users/42, which differs in
    //     - path: recorded /users/42, sent /users/7
    #expect(error?.underlyingError is Cassette.Failure)
    #expect(player.unusedEntries == ["#0 GET /users/42"])
}
