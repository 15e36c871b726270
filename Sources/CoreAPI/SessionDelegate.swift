import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one data task produced.
struct Exchange: Sendable {
    var response: HTTPURLResponse?
    var data: Data?
    var error: (any Error)?
}

/// The session-level delegate that drives every task of an ``ApiSession``.
///
/// Tasks are delegate-based rather than the built-in async `data(for:)`, which deadlocks on Linux when
/// a task is cancelled as it completes. Each task's completion runs exactly once, from
/// `didCompleteWithError`. Authentication challenges other than server trust are cancelled at once and
/// the challenge's response is kept, so a `401` with `WWW-Authenticate: Basic` ends as a 401 response
/// instead of hanging (Linux waits forever when no session-level delegate answers).
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // `tasks` is guarded by `lock`
    private struct TaskState {
        let task: URLSessionTask
        let completion: @Sendable (Exchange) -> Void
        var response: HTTPURLResponse?
        var data = Data()
        var challengeResponse: HTTPURLResponse?
    }

    private let lock = NSLock()
    private var tasks: [Int: TaskState] = [:]

    /// Registers `task`; `completion` runs once when it ends.
    func register(_ task: URLSessionTask, completion: @escaping @Sendable (Exchange) -> Void) {
        lock.withLock {
            tasks[task.taskIdentifier] = TaskState(task: task, completion: completion)
        }
    }

    /// The tasks in flight.
    var activeTasks: [URLSessionTask] {
        lock.withLock { tasks.values.map(\.task) }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock {
            tasks[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock {
            tasks[dataTask.taskIdentifier]?.data.append(data)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = lock.withLock({ tasks.removeValue(forKey: task.taskIdentifier) }) else { return }
        let response = state.response ?? (task.response as? HTTPURLResponse)
        if let challenged = state.challengeResponse, error != nil {
            // The challenge was cancelled by us: report the 401 response itself.
            state.completion(Exchange(response: challenged, data: Data(), error: nil))
        } else if let error {
            state.completion(Exchange(response: response, data: state.data, error: error))
        } else {
            state.completion(Exchange(response: response, data: state.data, error: nil))
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if !canImport(FoundationNetworking)
            guard challenge.protectionSpace.authenticationMethod != NSURLAuthenticationMethodServerTrust else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
        #endif
        let response =
            (challenge.failureResponse as? HTTPURLResponse)
            ?? HTTPURLResponse(url: task.originalRequest?.url ?? URL(fileURLWithPath: "/"), statusCode: 401, httpVersion: "HTTP/1.1", headerFields: nil)
        lock.withLock {
            tasks[task.taskIdentifier]?.challengeResponse = response
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(
        _ session: URLSession,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.performDefaultHandling, nil)
    }
}
