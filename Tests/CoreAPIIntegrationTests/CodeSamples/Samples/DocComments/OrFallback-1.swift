// OrFallback.swift, sample 1: declarations and statements, in the body of a function.
import CoreAPI

private func sample(session: ApiSession) async throws {
    struct GetProfile: ApiMethod {
        typealias Response = OrFallback<Profile, LegacyProfile>
        var hostProviderKey: String { "api" }
        var path: String { "/profile" }
    }

    switch try await session.perform(GetProfile()) {
    case .value(let profile): show(profile)
    case .fallback(let legacy, _): show(Profile(legacy))
    }
}
