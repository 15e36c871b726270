// WorkingWithManyCalls.md, sample 2.
import CoreAPI
import Foundation

func loadAvatars(of userIDs: [Int], with session: ApiSession) async throws -> [Data] {
    try await session.performAll(userIDs.map { GetAvatar(userID: $0) }, mode: .concurrent(limit: 3))
}

func refreshAvatars(of userIDs: [Int], with session: ApiSession) async -> [Result<Data, any Error>] {
    await session.performEach(
        userIDs.map { GetAvatar(userID: $0) },
        mode: .concurrent(limit: 3),
        onError: .cancelRest(except: [.status])
    ) { progress in
        print("\(progress.completed) of \(progress.total)")
    }
}
