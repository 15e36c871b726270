import BenchClients
import CoreAPI
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Raw `URLSession` driven the way CoreAPI's transport drives it, with none of CoreAPI: a session-level
/// delegate, a data task per request, its body collected in the delegate and handed over on completion.
/// The configuration is CoreAPI's default one. What this client retains per call is FoundationNetworking's
/// share of what CoreAPI's default session retains.
final class DelegateClient: NSObject, LoopbackClient, URLSessionDataDelegate, Sendable {
    /// The command-line name of this client.
    static let argument = "urlsession-delegate"

    private struct Exchange {
        var data = Data()
        var response: HTTPURLResponse?
        let continuation: CheckedContinuation<(Data, HTTPURLResponse?), any Error>
    }

    /// The exchanges in flight, by task.
    private let exchanges = Mutex<[Int: Exchange]>([:])
    /// `<base>/user`.
    private let url: URL
    private let decoder = JSONDecoder()
    /// Set once, right after `init`.
    nonisolated(unsafe) private var session: URLSession!

    init(baseURL: String) {
        url = URL(string: baseURL + "/user")!
        super.init()
        session = URLSession(
            configuration: ApiSession.makeDefaultConfiguration(),
            delegate: self,
            delegateQueue: nil
        )
    }

    func fetch() async throws -> TinyUser {
        let (data, response) = try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: URLRequest(url: url))
            exchanges.withLock { $0[task.taskIdentifier] = Exchange(continuation: continuation) }
            task.resume()
        }
        guard response?.statusCode == 200 else { throw URLError(.badServerResponse) }
        return try decoder.decode(TinyUser.self, from: data)
    }

    func shutdown() {
        session.finishTasksAndInvalidate()
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        exchanges.withLock { $0[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchanges.withLock { $0[dataTask.taskIdentifier]?.data.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            exchange.continuation.resume(throwing: error)
        } else {
            exchange.continuation.resume(returning: (exchange.data, exchange.response))
        }
    }
}
