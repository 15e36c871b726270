// GettingStarted.md, sample 2: statements, compiled as the body of a function.
import CoreAPI

func performGetUserSample() async throws -> User {
    let session = ApiSession(hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]))
    let user = try await session.perform(GetUser(id: 42))
    return user
}
