// MethodProvider.swift, sample 1: statements, in the body of a function.
import CoreAPI
import Foundation

private func sample(session: ApiSession) async throws -> Data {
    let avatars = session.provider(for: GetAvatar.self)
    let image = try await avatars.perform(GetAvatar(userID: 7))
    avatars.cancelAll()  // the provider's calls only
    return image
}
