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
///
/// The idle timeout is enforced here too: Linux truncates `URLRequest.timeoutInterval` to whole
/// seconds (0.5 s fires at once, 1.5 s after one second), so each task gets a timer that cancels it
/// when no response or body bytes arrived for its timeout, and the task then ends as timed out.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // `tasks` is guarded by `lock`
    private struct TaskState {
        let task: URLSessionTask
        let completion: @Sendable (Exchange) -> Void
        let progress: (@Sendable (TransferProgress) -> Void)?
        /// The temporary file the body is uploaded from, if any.
        let temporaryBodyFile: URL?
        var bodyBytesSent: Int64 = 0
        var bodyBytesExpected: Int64 = -1
        var isCancelling = false
        var expectedLength: Int64?
        var response: HTTPURLResponse?
        var data = Data()
        var challengeResponse: HTTPURLResponse?
        let idleTimeout: UInt64
        var lastActivity: UInt64
        var timer: (any DispatchSourceTimer)?
        var timedOut = false
    }

    /// Idle timeouts above this many seconds (or infinite ones) get no timer.
    static let longestIdleTimeout: TimeInterval = 1_000_000

    private let lock = NSLock()
    private var tasks: [Int: TaskState] = [:]
    private let timerQueue = DispatchQueue(label: "CoreAPI.ApiSession.timeouts")

    /// Registers `task`; `completion` runs once when it ends. The task is cancelled and ends as timed
    /// out when nothing is sent or received for `idleTimeout` seconds. `progress` is called for body
    /// bytes sent and received.
    func register(
        _ task: URLSessionTask,
        idleTimeout: TimeInterval,
        temporaryBodyFile: URL? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Exchange) -> Void
    ) {
        let id = task.taskIdentifier
        var timer: (any DispatchSourceTimer)?
        if idleTimeout < Self.longestIdleTimeout {
            let source = DispatchSource.makeTimerSource(queue: timerQueue)
            source.setEventHandler { [weak self] in self?.checkIdle(id) }
            source.schedule(deadline: .now() + idleTimeout)
            timer = source
        }
        lock.withLock {
            tasks[id] = TaskState(
                task: task,
                completion: completion,
                progress: progress,
                temporaryBodyFile: temporaryBodyFile,
                idleTimeout: timer == nil ? .max : UInt64(max(idleTimeout, 0) * 1_000_000_000),
                lastActivity: DispatchTime.now().uptimeNanoseconds,
                timer: timer
            )
        }
        timer?.resume()
    }

    /// Times the task out when it has been idle for its timeout; otherwise sets the timer for the rest.
    private func checkIdle(_ id: Int) {
        let task: URLSessionTask? = lock.withLock {
            guard var state = tasks[id] else { return nil }
            let idle = DispatchTime.now().uptimeNanoseconds &- state.lastActivity
            guard idle >= state.idleTimeout else {
                state.timer?.schedule(deadline: .now() + .nanoseconds(Int(state.idleTimeout - idle)))
                return nil
            }
            state.timedOut = true
            state.timer?.cancel()
            tasks[id] = state
            return state.task
        }
        if let task {
            cancel(task)
        }
    }

    /// Cancels `task`, working around a FoundationNetworking crash.
    ///
    /// On Linux, cancelling an upload from a file while FoundationNetworking is reading the next chunk
    /// of the file kills the process (a `try!` on `curl_easy_pause` fails once the transfer is gone);
    /// here it happened in about 1 of 15 cancels. For a temporary body file CoreAPI owns, the file is
    /// first cut to zero bytes, so no further chunk is read and the body can never complete, and the
    /// task is cancelled a moment later, once any read in flight has finished.
    func cancel(_ task: URLSessionTask) {
        #if canImport(FoundationNetworking)
            let file: URL? = lock.withLock {
                guard var state = tasks[task.taskIdentifier], let file = state.temporaryBodyFile,
                    state.bodyBytesSent != state.bodyBytesExpected
                else { return nil }
                guard !state.isCancelling else { return nil }
                state.isCancelling = true
                tasks[task.taskIdentifier] = state
                return file
            }
            if let file {
                if let handle = try? FileHandle(forWritingTo: file) {
                    try? handle.truncate(atOffset: 0)
                    try? handle.close()
                }
                timerQueue.asyncAfter(deadline: .now() + .milliseconds(50)) { task.cancel() }
                return
            }
        #endif
        task.cancel()
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
        let progress = lock.withLock { () -> (@Sendable (TransferProgress) -> Void)? in
            let id = dataTask.taskIdentifier
            tasks[id]?.response = response as? HTTPURLResponse
            tasks[id]?.data = Data()
            tasks[id]?.lastActivity = DispatchTime.now().uptimeNanoseconds
            let expected = response.expectedContentLength
            tasks[id]?.expectedLength = expected >= 0 ? expected : nil
            return tasks[id]?.progress
        }
        completionHandler(.allow)
        if let progress {
            progress(TransferProgress(direction: .download, completedBytes: 0, totalBytes: nil))
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let report = lock.withLock { () -> (TransferProgress, @Sendable (TransferProgress) -> Void)? in
            let id = dataTask.taskIdentifier
            tasks[id]?.data.append(data)
            tasks[id]?.lastActivity = DispatchTime.now().uptimeNanoseconds
            guard let state = tasks[id], let progress = state.progress else { return nil }
            let completed = Int64(state.data.count)
            // Content-Length counts encoded bytes; a decoded body may be longer.
            let total = state.expectedLength.map { max($0, completed) }
            return (TransferProgress(direction: .download, completedBytes: completed, totalBytes: total), progress)
        }
        if let (value, progress) = report {
            progress(value)
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        let progress = lock.withLock { () -> (@Sendable (TransferProgress) -> Void)? in
            let id = task.taskIdentifier
            tasks[id]?.lastActivity = DispatchTime.now().uptimeNanoseconds
            tasks[id]?.bodyBytesSent = totalBytesSent
            tasks[id]?.bodyBytesExpected = totalBytesExpectedToSend
            return tasks[id]?.progress
        }
        progress?(
            TransferProgress(
                direction: .upload,
                completedBytes: totalBytesSent,
                totalBytes: totalBytesExpectedToSend >= 0 ? totalBytesExpectedToSend : nil
            )
        )
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = lock.withLock({ tasks.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.timer?.cancel()
        let response = state.response ?? (task.response as? HTTPURLResponse)
        if state.timedOut, error != nil {
            state.completion(Exchange(response: response, data: state.data, error: URLError(.timedOut)))
        } else if let challenged = state.challengeResponse, error != nil {
            // The challenge was cancelled by us: report the 401 response itself.
            state.completion(Exchange(response: challenged, data: Data(), error: nil))
        } else {
            state.completion(Exchange(response: response, data: state.data, error: error))
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
            ?? HTTPURLResponse(
                url: task.originalRequest?.url ?? URL(fileURLWithPath: "/"),
                statusCode: 401,
                httpVersion: "HTTP/1.1",
                headerFields: nil
            )
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
