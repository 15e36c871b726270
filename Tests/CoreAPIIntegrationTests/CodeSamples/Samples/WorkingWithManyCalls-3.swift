// WorkingWithManyCalls.md, sample 3.
import CoreAPI
import Foundation

func showAvatars(of userIDs: [Int], with session: ApiSession) async {
    for await item in session.results(of: userIDs.map { GetAvatar(userID: $0) }) {
        if case .success(let image) = item.result {
            print("avatar of \(userIDs[item.index]): \(image.count) bytes")
        }
    }
}

func loadHeader(of userID: Int, with session: ApiSession) async throws -> (avatar: Data, banner: Data) {
    let (avatar, banner) = try await session.performAll(GetAvatar(userID: userID), GetBanner())
    return (avatar, banner)
}
