// UsingMiddleware.md, sample 8.
import CoreAPI

func watchFailures(of observer: ObserverMiddleware) -> Task<Void, Never> {
    Task {
        for await failure in observer.failures() where failure.statusCode == 401 {
            print("signed out after \(failure.methodName)")
        }
    }
}
