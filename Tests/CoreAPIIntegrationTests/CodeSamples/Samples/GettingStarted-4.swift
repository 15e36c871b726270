// GettingStarted.md, sample 4: statements, compiled as the body of a function.
import CoreAPI

func handleErrorsSample(session: ApiSession) async throws {
    do {
        _ = try await session.perform(GetUser(id: 42))
    } catch let error as ApiError {
        switch error {
        case .unauthorized: print("sign in again")
        case .unacceptableStatus(let failure): print("HTTP \(failure.statusCode)")
        case .mapping(let failure): print("unexpected body: \(String(describing: failure.cause))")
        default: print(error)
        }
    }
}
