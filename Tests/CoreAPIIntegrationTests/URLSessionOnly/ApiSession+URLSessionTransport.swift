@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#else
    import Foundation
#endif

/// The URLSession machinery of a session made with a configuration, for the leak and load checks.
extension ApiSession {
    var urlSessionTransport: URLSessionTransport {
        guard let transport = transport as? URLSessionTransport else {
            preconditionFailure("the session was not made over a URLSessionTransport")
        }
        return transport
    }

    var delegate: SessionDelegate { urlSessionTransport.delegate }

    var urlSession: URLSession? { urlSessionTransport.urlSession }

    /// The tasks in flight once cancels have gone through: a call ends as soon as it is cancelled, and
    /// its task is cancelled a moment later on the transport's task queue. Waits up to 5 s.
    func settledActiveTasks() async -> [URLSessionTask] {
        let start = ContinuousClock.now
        while !delegate.activeTasks.isEmpty, ContinuousClock.now - start < .seconds(5) {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return delegate.activeTasks
    }
}
