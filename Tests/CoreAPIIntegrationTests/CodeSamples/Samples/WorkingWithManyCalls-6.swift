// WorkingWithManyCalls.md, sample 6.
import CoreAPI

func useRealService(_ sandbox: MockMiddleware, _ enabled: Bool) {
    sandbox.isEnabled = !enabled
}

func watchConnectivity(_ observer: ObserverMiddleware) -> Task<Void, Never> {
    Task {
        for await event in observer.events() {
            if case .failed(let failure) = event, failure.category == .offline {
                print("offline: \(failure.methodName)")
            }
        }
    }
}
