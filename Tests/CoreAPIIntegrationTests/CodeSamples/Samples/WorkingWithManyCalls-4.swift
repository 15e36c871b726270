// WorkingWithManyCalls.md, sample 4.
import CoreAPI

func leaveProfile(of userID: Int, session: ApiSession) {
    session.cancelCalls { ($0.method as? GetAvatar)?.userID == userID }
}

func showActivity(of session: ApiSession) -> Task<Void, Never> {
    Task {
        for await count in session.callCounts() {
            print(count > 0 ? "loading \(count)" : "idle")
        }
    }
}
