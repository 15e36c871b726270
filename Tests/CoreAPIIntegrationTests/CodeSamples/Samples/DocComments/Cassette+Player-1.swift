// Cassette+Player.swift, sample 1: statements, in the body of a function.
import CoreAPI
import CoreAPITesting
import Foundation

private func sample(cassetteURL: URL, hosts: DictionaryHostProvider) async throws -> User {
    let player = try Cassette.Player(contentsOf: cassetteURL)
    let session = ApiSession(hostProvider: hosts, transport: player)
    let user = try await session.perform(GetUser(id: 42))
    try player.checkAllEntriesUsed()
    return user
}
