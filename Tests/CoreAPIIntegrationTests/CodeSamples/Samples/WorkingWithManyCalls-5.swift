// WorkingWithManyCalls.md, sample 5.
import CoreAPI
import Foundation

struct AvatarView {
    let avatars: MethodProvider<GetAvatar>

    func load(_ userID: Int) async throws -> Data {
        try await avatars.perform(GetAvatar(userID: userID))
    }

    func disappear() {
        avatars.cancelAll()
    }
}

func downloadBanner(with session: ApiSession) async throws -> Data {
    let call = session.start(GetBanner())
    for await step in call.progress {
        print("\(step.completedBytes) bytes")
    }
    return try await call.value
}
