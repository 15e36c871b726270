// ApiSession.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample() async throws -> User {
    let session = ApiSession(hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]))
    let user = try await session.perform(GetUser(id: 42))
    return user
}
