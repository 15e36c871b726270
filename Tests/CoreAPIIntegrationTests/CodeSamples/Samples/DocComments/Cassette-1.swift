// Cassette.swift, sample 1: a test, at the top level.
import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@Test func replaysTheUserCassette() async throws {
    let cassette = Cassette(named: "fetchesAUser", in: cassettesFolder)
    let transport = try cassette.makeTransport(live: URLSessionTransport())
    let hosts = DictionaryHostProvider(["api": "https://api.example.com"])
    let session = ApiSession(hostProvider: hosts, transport: transport)
    let user = try await session.perform(GetUser(id: 42))
    #expect(user.name == "Ada")
    try cassette.finish()
}
