// ObserverMiddleware.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(hosts: any HostProvider) -> ApiSession {
    let observer = ObserverMiddleware { metrics in print(metrics.methodName, metrics.duration) }
    let session = ApiSession(hostProvider: hosts, middlewares: [observer])
    Task {
        for await failure in observer.failures() {
            if failure.statusCode == 401 { await signOut() }
        }
    }
    return session
}
