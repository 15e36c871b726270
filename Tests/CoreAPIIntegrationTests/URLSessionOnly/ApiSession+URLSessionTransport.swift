import CoreAPITesting

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
    /// its task is cancelled a moment later on the transport's task queue. Waits up to 5 s; tasks still
    /// there then are no error here: the caller's expectation on the list reports them.
    func settledActiveTasks() async -> [URLSessionTask] {
        try? await waitUntil(timeout: .seconds(5)) { [delegate] in delegate.activeTasks.isEmpty }
        return delegate.activeTasks
    }
}
