import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one data task produced.
struct Exchange: Sendable {
    var response: HTTPURLResponse?
    var data: Data?
    var error: (any Error)?
    /// A redirect CoreAPI follows itself with a new task.
    var redirect: Redirect?
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
/// seconds (0.5 s fires at once, 1.5 s after one second), so a task is cancelled when no response or
/// body bytes arrived for its timeout, and then ends as timed out; the call's overall deadline is
/// enforced the same way. One timer per session serves all tasks.
///
/// Redirects and the response size limit are enforced here as well (see ``TransportPolicy``): Linux
/// forwards every header to any host a redirect names and replays a 307 POST with an empty body, so
/// the delegate builds each redirected request itself from the original one.
///
/// On Linux the delegate methods run on FoundationNetworking's work queue (see ``DelegateQueue``), so
/// they never call into FoundationNetworking synchronously: cancelling a task, and answering a
/// challenge with a cancel, go through `timerQueue`.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// Idle timeouts above this many seconds (or infinite ones) get no timer.
    static let longestIdleTimeout: TimeInterval = 1_000_000

    /// How long a task CoreAPI cancelled may take to report its end (nanoseconds). After that its call
    /// ends as if it had: a task that never reports would otherwise leave its call waiting for good.
    private let cancelGrace: UInt64

    /// A delegate that ends a cancelled task's call itself when the task has not reported its end
    /// within `cancelGrace` seconds.
    init(cancelGrace: TimeInterval = 5) {
        self.cancelGrace = UInt64(cancelGrace * 1_000_000_000)
    }

    /// What the delegate's lock guards.
    private struct Shared {
        /// The tasks in flight, by object (each entry keeps its task alive, so no other task can share
        /// its identifier).
        var tasks: [ObjectIdentifier: TaskState] = [:]
        /// One timer for all tasks, armed for the earliest moment a task may be due; made on first use.
        ///
        /// Its handler holds the delegate strongly, a cycle that
        /// ``urlSession(_:didBecomeInvalidWithError:)`` ends by cancelling the timer. A weak reference
        /// would give the delegate a side table, and every retain and release of it (several per
        /// request) would then take the runtime's slow path.
        var timer: (any DispatchSourceTimer)?
        /// Whether the session was invalidated: no timer is made after that.
        var isInvalidated = false
        /// When `timer` fires next (`.max`: not armed). A task due later needs no change to the timer,
        /// so a steady flow of requests with the same timeout arms it about once per timeout, not once
        /// each.
        var armedUntil = UInt64.max
    }

    private let shared = LockedValue(Shared())
    private let timerQueue = DispatchQueue(label: "CoreAPI.ApiSession.timeouts")

    deinit {
        shared.withLock { $0.timer }?.cancel()
    }

    /// Registers `task`; `completion` runs once when it ends. The task is cancelled and ends as timed
    /// out when nothing is sent or received for the idle timeout, or when the deadline passes.
    func register(
        _ task: URLSessionTask,
        options: TaskOptions,
        completion: @escaping @Sendable (Exchange) -> Void
    ) {
        let state = TaskState(
            task: task,
            completion: completion,
            options: options,
            now: DispatchTime.now().uptimeNanoseconds
        )
        shared.withLock { shared in
            shared.tasks[ObjectIdentifier(task)] = state
            arm(&shared, for: state.due(cancelGrace: cancelGrace))
        }
    }

    /// Registers `task` with only an idle timeout.
    func register(
        _ task: URLSessionTask,
        idleTimeout: TimeInterval,
        completion: @escaping @Sendable (Exchange) -> Void
    ) {
        register(task, options: TaskOptions(idleTimeout: idleTimeout), completion: completion)
    }

    /// Makes the timer fire no later than `due`; runs under the lock that guards `shared`.
    private func arm(_ shared: inout Shared, for due: UInt64) {
        guard due < shared.armedUntil, !shared.isInvalidated else { return }
        shared.armedUntil = due
        let source: any DispatchSourceTimer
        if let timer = shared.timer {
            source = timer
        } else {
            source = DispatchSource.makeTimerSource(queue: timerQueue)
            source.setEventHandler { self.timerFired() }
            source.activate()
            shared.timer = source
        }
        source.schedule(deadline: DispatchTime(uptimeNanoseconds: due))
    }

    /// Times out every task that has been idle for its timeout or whose deadline has passed, ends the
    /// calls of cancelled tasks that have not reported their end within the grace period, then arms the
    /// timer for the earliest of the rest.
    private func timerFired() {
        let (expired, silent) = shared.withLock { shared -> ([URLSessionTask], [TaskState]) in
            let now = DispatchTime.now().uptimeNanoseconds
            var expired: [URLSessionTask] = []
            var silent: [TaskState] = []
            var next = UInt64.max
            for (key, state) in shared.tasks {
                let due = state.due(cancelGrace: cancelGrace)
                if due > now {
                    next = min(next, due)
                } else if state.cancelledAt != nil {
                    silent.append(state)
                    shared.tasks[key] = nil
                } else if !state.timedOut {
                    state.timedOut = true
                    expired.append(state.task)
                }
            }
            shared.armedUntil = .max
            if next != .max {
                arm(&shared, for: next)
            }
            return (expired, silent)
        }
        for task in expired {
            cancel(task)
        }
        for state in silent {
            finish(state, error: URLError(.cancelled))
        }
    }

    /// Cancels `task`, working around a FoundationNetworking crash.
    ///
    /// On Linux, cancelling an upload from a file while FoundationNetworking is reading the next chunk
    /// of the file kills the process (a `try!` on `curl_easy_pause` fails once the transfer is gone);
    /// here it happened in about 1 of 15 cancels. For a temporary body file CoreAPI owns, the file is
    /// first cut to zero bytes, so no further chunk is read and the body can never complete, and the
    /// task is cancelled a moment later, once any read in flight has finished.
    ///
    /// The call ends once the task reports its end, or after the grace period if it never does.
    func cancel(_ task: URLSessionTask) {
        let file: URL? = shared.withLock { shared in
            guard let state = shared.tasks[ObjectIdentifier(task)] else { return nil }
            if state.cancelledAt == nil {
                state.cancelledAt = DispatchTime.now().uptimeNanoseconds
                arm(&shared, for: state.due(cancelGrace: cancelGrace))
            }
            #if canImport(FoundationNetworking)
                guard let file = state.temporaryBodyFile, state.bodyBytesSent != state.bodyBytesExpected,
                    !state.isCancelling
                else { return nil }
                state.isCancelling = true
                return file
            #else
                return nil
            #endif
        }
        #if canImport(FoundationNetworking)
            if let file {
                if let handle = try? FileHandle(forWritingTo: file) {
                    try? handle.truncate(atOffset: 0)
                    try? handle.close()
                }
                timerQueue.asyncAfter(deadline: .now() + .milliseconds(50)) { task.cancel() }
                return
            }
        #else
            _ = file  // Only FoundationNetworking needs the file workaround.
        #endif
        task.cancel()
    }

    /// How many tasks are in flight.
    var taskCount: Int {
        shared.withLock { $0.tasks.count }
    }

    /// The tasks in flight.
    var activeTasks: [URLSessionTask] {
        shared.withLock { $0.tasks.values.map(\.task) }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let (progress, tooLarge) = shared.withLock { shared -> ((@Sendable (TransferProgress) -> Void)?, Bool) in
            guard let state = shared.tasks[ObjectIdentifier(dataTask)] else { return (nil, false) }
            state.response = response as? HTTPURLResponse
            state.data = Data()
            state.lastActivity = DispatchTime.now().uptimeNanoseconds
            let expected = response.expectedContentLength
            state.expectedLength = expected >= 0 ? expected : nil
            // Content-Length counts encoded bytes, so it decides early only for an identity body.
            let limit = state.options.maximumResponseSize
            let tooLarge = expected > limit && Self.isIdentityEncoded(state.response)
            if tooLarge {
                state.failure = .responseTooLarge(limit: limit)
            }
            return (state.progress, tooLarge)
        }
        completionHandler(.allow)
        if tooLarge {
            timerQueue.async { self.cancel(dataTask) }
            return
        }
        if let progress {
            progress(TransferProgress(direction: .download, completedBytes: 0, totalBytes: nil))
        }
    }

    /// Whether `response` has no `Content-Encoding` other than `identity`.
    private static func isIdentityEncoded(_ response: HTTPURLResponse?) -> Bool {
        let encoding = response?.value(forHTTPHeaderField: "Content-Encoding")?.lowercased() ?? "identity"
        return encoding == "identity" || encoding.isEmpty
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var tooLarge = false
        let report = shared.withLock { shared -> (TransferProgress, @Sendable (TransferProgress) -> Void)? in
            guard let state = shared.tasks[ObjectIdentifier(dataTask)], state.failure == nil else { return nil }
            state.lastActivity = DispatchTime.now().uptimeNanoseconds
            let limit = state.options.maximumResponseSize
            if Int64(state.data.count) + Int64(data.count) > limit {
                // Counted on decoded bytes as they arrive; what arrived so far is dropped.
                state.failure = .responseTooLarge(limit: limit)
                state.data = Data()
                tooLarge = true
                return nil
            }
            if state.data.isEmpty {
                state.data = data  // the first chunk, usually the whole body: no copy
            } else {
                state.data.append(data)
            }
            guard let progress = state.progress else { return nil }
            let completed = Int64(state.data.count)
            // Content-Length counts encoded bytes; a decoded body may be longer.
            let total = state.expectedLength.map { max($0, completed) }
            return (TransferProgress(direction: .download, completedBytes: completed, totalBytes: total), progress)
        }
        if tooLarge {
            timerQueue.async { self.cancel(dataTask) }
        } else if let (value, progress) = report {
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
        let progress = shared.withLock { shared -> (@Sendable (TransferProgress) -> Void)? in
            guard let state = shared.tasks[ObjectIdentifier(task)] else { return nil }
            state.lastActivity = DispatchTime.now().uptimeNanoseconds
            state.bodyBytesSent = totalBytesSent
            state.bodyBytesExpected = totalBytesExpectedToSend
            return state.progress
        }
        progress?(
            TransferProgress(
                direction: .upload,
                completedBytes: totalBytesSent,
                totalBytes: totalBytesExpectedToSend >= 0 ? totalBytesExpectedToSend : nil
            )
        )
    }

    /// Cancels the timer once the session is invalidated and all its tasks have ended, which releases
    /// the timer's hold on the delegate.
    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        let timer = shared.withLock { shared in
            shared.isInvalidated = true
            shared.armedUntil = .max
            return shared.timer.take()
        }
        timer?.cancel()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = shared.withLock({ $0.tasks.removeValue(forKey: ObjectIdentifier(task)) }) else {
            return
        }
        finish(state, error: error)
    }

    /// Runs the completion of a task taken out of `tasks`, which ended with `error`.
    private func finish(_ state: TaskState, error: (any Error)?) {
        let response = state.response ?? (state.task.response as? HTTPURLResponse)
        if let failure = state.failure {
            state.completion(Exchange(response: nil, data: nil, error: failure))
        } else if let redirect = state.followUp, error == nil {
            state.completion(Exchange(redirect: redirect))
        } else if state.timedOut, error != nil {
            state.completion(Exchange(response: response, data: state.data, error: URLError(.timedOut)))
        } else if let challenged = state.challengeResponse, error != nil {
            // The challenge was cancelled by us: report the 401 response itself.
            state.completion(Exchange(response: challenged, data: Data(), error: nil))
        } else {
            state.completion(Exchange(response: response, data: state.data, error: error))
        }
    }

    /// Stops every redirect and lets ``ApiSession`` follow it with a new task: Linux never sends a body
    /// again after a redirect (a 307 POST goes out with `Content-Length: 0`, whatever the new request
    /// holds), so following hops ourselves is the only way to keep 307 and 308 bodies, and it makes
    /// the rules below the same on every platform.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        shared.withLock { shared in
            guard let state = shared.tasks[ObjectIdentifier(task)] else { return }
            switch Redirect.next(after: response, proposed: request, options: state.options) {
            case .success(let redirect): state.followUp = redirect
            case .failure(let failure): state.failure = failure
            }
        }
        completionHandler(nil)
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
        shared.withLock { shared in
            shared.tasks[ObjectIdentifier(task)]?.challengeResponse = response
        }
        timerQueue.async { completionHandler(.cancelAuthenticationChallenge, nil) }
    }

    func urlSession(
        _ session: URLSession,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.performDefaultHandling, nil)
    }
}
