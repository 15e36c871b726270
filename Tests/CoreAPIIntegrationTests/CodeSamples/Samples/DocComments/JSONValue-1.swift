// JSONValue.swift, sample 1: declarations and statements, in the body of a function.
import CoreAPI
import CoreAPIJSON

private func sample(session: ApiSession) async throws -> Int? {
    struct GetConfig: ApiMethod {
        typealias Response = JSONValue
        var hostProviderKey: String { "api" }
        var path: String { "/config" }
    }

    let config = try await session.perform(GetConfig())
    let limit = config["limits"]?["daily"]?.intValue
    return limit
}
