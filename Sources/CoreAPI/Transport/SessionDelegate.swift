import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session-level delegate that drives every task of a ``URLSessionTransport``.
///
/// Tasks are delegate-based rather than the built-in async `data(for:)`, which deadlocks on Linux when
/// a task is cancelled as it completes. Each task's completion runs exactly once, from
/// `didCompleteWithError`. Server-trust and client-certificate challenges (Apple platforms only) are
/// answered with the transport's ``TLSTrust``; other authentication challenges are cancelled at once and
/// the challenge's response is kept, so a `401` with `WWW-Authenticate: Basic` ends as a 401 response
/// instead of hanging (Linux waits forever when no session-level delegate answers).
///
/// The idle timeout is enforced here too: Linux truncates `URLRequest.timeoutInterval` to whole
/// seconds (0.5 s fires at once, 1.5 s after one second), so a task ends as timed out when no response
/// or body bytes arrived for its timeout; the exchange's deadline is enforced the same way. One timer
/// per session serves all tasks.
///
/// A task CoreAPI ends — timed out, cancelled, or over the size limit — reports its outcome at once and
/// is cancelled afterwards; whatever FoundationNetworking reports for it later is ignored, so a busy
/// work queue never holds a call. Redirects are refused, so the `3xx` is the task's response: Linux
/// forwards every header to any host a redirect names and replays a 307 POST with an empty body, so the
/// session follows hops itself. Of a redirect's body only the first ``ResponseHead/redirectBodyLimit``
/// bytes are kept; the task ends as soon as more arrives. (FoundationNetworking itself reads a redirect's
/// whole body before it tells the delegate anything, and reports none of its bytes while it does.)
///
/// A response head is checked before its body is read (see `headFailure(of:method:)`), and the
/// errors tasks end with are named from what the transport knows (see ``failure(for:afterHead:url:)``).
///
/// On Linux the delegate methods run on FoundationNetworking's work queue (see ``DelegateQueue``), so
/// they never call into FoundationNetworking synchronously: cancelling a task, and answering a
/// challenge with a cancel, go through `engineQueue`. FoundationNetworking 6.3.1 cancels a task with
/// a synchronous call into its work queue, which can be busy for seconds, so the timer has a queue of
/// its own that such a call never holds up.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
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
        /// Exchanges whose task is being made: FoundationNetworking makes it on its work queue, which
        /// can be busy for seconds, and the idle timeout and the deadline run meanwhile.
        var waiting: [ObjectIdentifier: TaskState] = [:]
        /// Tasks CoreAPI ended that have not reported their end yet — FoundationNetworking may still be
        /// busy with them — with the temporary body file they may still read and when they were ended;
        /// they are forgotten, and the file released, when they report, or after ``retiredGrace``.
        var retired: [ObjectIdentifier: (file: URL?, since: UInt64)] = [:]
    }

    /// How long an ended task may go on before it is forgotten all the same, its temporary body file
    /// released (nanoseconds): a task that never reports its end would be kept for good.
    private static let retiredGrace: UInt64 = 10_000_000_000

    /// The tasks of every transport of the process that FoundationNetworking may be busy with: in
    /// flight, or ended by CoreAPI and not reported yet. FoundationNetworking serves them all on one
    /// work queue; while there are none, making a task there answers at once.
    static let engineTasks = LockedValue(0)

    private let shared = LockedValue(Shared())
    private let timerQueue = DispatchQueue(label: "CoreAPI.URLSessionTransport.timeouts")
    /// Where the delegate calls into FoundationNetworking: cancelling tasks, answering challenges.
    private let engineQueue = DispatchQueue(label: "CoreAPI.URLSessionTransport.cancels")

    /// Which servers are trusted and the client certificate; applied where the engine hands TLS
    /// challenges to the delegate (Apple platforms).
    let trust: TLSTrust

    /// Creates a delegate that applies `trust` to TLS challenges.
    init(trust: TLSTrust = .system) {
        self.trust = trust
        super.init()
    }

    deinit {
        shared.withLock { $0.timer }?.cancel()
    }

    /// Starts the clocks of an exchange whose task is about to be made; `completion` runs once, when
    /// the task ends or when CoreAPI ends the exchange. The exchange ends as timed out when nothing is
    /// sent or received for the idle timeout, or when the deadline passes — the time spent making the
    /// task included. Hand the task to ``attach(_:to:)`` once made.
    func reserve(
        options: TransportOptions,
        temporaryBodyFile: EncodedRequest.BodyFile? = nil,
        sent: UInt64 = DispatchTime.now().uptimeNanoseconds,
        completion: @escaping @Sendable (TaskOutcome) -> Void
    ) -> TaskState {
        let state = TaskState(
            completion: completion,
            options: options,
            temporaryBodyFile: temporaryBodyFile?.url,
            truncatesBodyFile: temporaryBodyFile?.isWrittenForOneAttempt ?? false,
            now: sent
        )
        if let temporaryBodyFile = temporaryBodyFile?.url {
            // Held from now on: the call may end, and discard the file, while the task is being made.
            TemporaryBodyFiles.retain(temporaryBodyFile)
        }
        shared.withLock { shared in
            shared.waiting[ObjectIdentifier(state)] = state
            arm(&shared, for: state.due)
        }
        return state
    }

    /// Makes `task` the task of `state`; returns `false`, and `task` must be cancelled and never
    /// resumed, when the exchange already ended (it timed out or was cancelled while the task was
    /// being made; its body file is released then).
    func attach(_ task: URLSessionTask, to state: TaskState) -> Bool {
        shared.withLock { shared in
            guard shared.waiting.removeValue(forKey: ObjectIdentifier(state)) != nil else { return false }
            state.task = task
            shared.tasks[ObjectIdentifier(task)] = state
            Self.engineTasks.withLock { $0 += 1 }
            return true
        }
    }

    /// Whether the exchange of `state` is still waiting for its task.
    func isWaiting(_ state: TaskState) -> Bool {
        shared.withLock { $0.waiting[ObjectIdentifier(state)] != nil }
    }

    /// Ends an exchange whose task was not made yet with `error`; does nothing when it already ended
    /// or has its task.
    func endWaiting(_ state: TaskState, with error: ApiError) {
        guard shared.withLock({ $0.waiting.removeValue(forKey: ObjectIdentifier(state)) }) != nil else { return }
        if let file = state.temporaryBodyFile {
            TemporaryBodyFiles.release(file)
        }
        state.completion(TaskOutcome(error: error))
    }

    /// Registers a task already made; see ``reserve(options:temporaryBodyFile:sent:completion:)``.
    func register(
        _ task: URLSessionTask,
        options: TransportOptions,
        completion: @escaping @Sendable (TaskOutcome) -> Void
    ) {
        _ = attach(task, to: reserve(options: options, completion: completion))
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

    /// Ends every task that has been idle for its timeout or whose deadline has passed, then arms the
    /// timer for the earliest of the rest.
    private func timerFired() {
        var waitedTooLong: [TaskState] = []
        var released: [URL] = []
        var forgotten = 0
        let expired = shared.withLock { shared -> [TaskState] in
            let now = DispatchTime.now().uptimeNanoseconds
            var expired: [TaskState] = []
            var next = UInt64.max
            for state in shared.tasks.values {
                let due = state.due
                if due > now {
                    next = min(next, due)
                } else {
                    expired.append(state)
                }
            }
            for (key, entry) in shared.retired {
                let due = entry.since + Self.retiredGrace
                if due > now {
                    next = min(next, due)
                } else {
                    shared.retired[key] = nil
                    forgotten += 1
                    if let file = entry.file {
                        released.append(file)
                    }
                }
            }
            for (key, state) in shared.waiting {
                let due = state.due
                if due > now {
                    next = min(next, due)
                } else {
                    shared.waiting[key] = nil
                    waitedTooLong.append(state)
                }
            }
            shared.armedUntil = .max
            if next != .max {
                arm(&shared, for: next)
            }
            return expired
        }
        for state in expired {
            if let task = state.task {
                end(task, with: .timeout)
            }
        }
        for state in waitedTooLong {
            if let file = state.temporaryBodyFile {
                TemporaryBodyFiles.release(file)
            }
            state.completion(TaskOutcome(error: .timeout))
        }
        for file in released {
            TemporaryBodyFiles.release(file)
        }
        if forgotten > 0 {
            Self.engineTasks.withLock { $0 -= forgotten }
        }
    }

    /// Ends `task` with `error` at once, then cancels it: its call never waits for FoundationNetworking
    /// to acknowledge the cancel.
    func cancel(_ task: URLSessionTask) {
        end(task, with: .cancelled)
    }

    /// Removes the state of `task`, which CoreAPI ends before it reported its end; the task, and its
    /// temporary body file if any, stay held until it does.
    private func takeOut(_ task: URLSessionTask) -> TaskState? {
        shared.withLock { shared -> TaskState? in
            guard let state = shared.tasks.removeValue(forKey: ObjectIdentifier(task)) else { return nil }
            let now = DispatchTime.now().uptimeNanoseconds
            shared.retired[ObjectIdentifier(task)] = (state.temporaryBodyFile, now)
            arm(&shared, for: now + Self.retiredGrace)
            return state
        }
    }

    /// Reports `error` as the outcome of `task` unless it has ended already, then cancels the task,
    /// working around a FoundationNetworking crash.
    ///
    /// On Linux, cancelling an upload from a file while FoundationNetworking is reading the next chunk
    /// of the file kills the process (a `try!` on `curl_easy_pause` fails once the transfer is gone);
    /// here it happened in about 1 of 15 cancels. For a temporary body file the session wrote for this
    /// attempt alone, the file is first cut to zero bytes, so no further chunk is read and the body can
    /// never complete, and the task is cancelled a moment later, once any read in flight has finished.
    private func end(_ task: URLSessionTask, with error: ApiError) {
        guard let state = takeOut(task) else { return }
        #if canImport(FoundationNetworking)
            if let file = state.temporaryBodyFile, state.truncatesBodyFile,
                state.bodyBytesSent != state.bodyBytesExpected
            {
                if let handle = try? FileHandle(forWritingTo: file) {
                    try? handle.truncate(atOffset: 0)
                    try? handle.close()
                }
                state.completion(TaskOutcome(error: state.failure ?? error))
                engineQueue.asyncAfter(deadline: .now() + .milliseconds(50)) { task.cancel() }
                return
            }
        #endif
        state.completion(TaskOutcome(error: state.failure ?? error))
        engineQueue.async { task.cancel() }
    }

    /// Reports `outcome`, a response, as the outcome of `task` unless it has ended already, then cancels
    /// the task so the rest of the body is not read.
    ///
    /// Used for a redirect whose body goes beyond what is kept. The body file, if any, is left as it is:
    /// the session may send the same body again to the redirect's target, and FoundationNetworking
    /// delivers a redirect's body only once its transfer has ended, so no chunk of the file is being
    /// read when the task is cancelled.
    private func end(_ task: URLSessionTask, with outcome: TaskOutcome) {
        guard let state = takeOut(task) else { return }
        state.completion(outcome)
        engineQueue.async { task.cancel() }
    }

    /// How many tasks are in flight.
    var taskCount: Int {
        shared.withLock { $0.tasks.count }
    }

    /// The tasks in flight.
    var activeTasks: [URLSessionTask] {
        shared.withLock { $0.tasks.values.compactMap(\.task) }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let (progress, refused) = shared.withLock { shared -> ((@Sendable (TransferProgress) -> Void)?, Bool) in
            guard let state = shared.tasks[ObjectIdentifier(dataTask)] else { return (nil, false) }
            let head = response as? HTTPURLResponse
            state.response = head
            state.data = Data()
            state.lastActivity = DispatchTime.now().uptimeNanoseconds
            let expected = response.expectedContentLength
            state.expectedLength = expected >= 0 ? expected : nil
            let fields = head.map(ResponseHead.init)
            if let fields, let failure = Self.headFailure(of: fields, method: dataTask.originalRequest?.httpMethod) {
                state.failure = failure
                return (nil, true)
            }
            let limit = state.options.maximumResponseSize
            if let fields, fields.isRedirect {
                // The session follows it: only the start of its body is kept, and the size limit is not
                // reached by a body that is not read.
                state.redirectBodyLimit = Int(min(Int64(ResponseHead.redirectBodyLimit), max(limit, 0)))
                return (state.progress, false)
            }
            // Content-Length counts encoded bytes, so it decides early only for an identity body.
            let declared = fields?.declaredLength ?? expected
            let tooLarge = max(expected, declared) > limit && (fields?.isIdentityEncoded ?? true)
            if tooLarge {
                state.failure = .responseTooLarge(limit: limit)
            }
            return (state.progress, tooLarge)
        }
        completionHandler(.allow)
        if refused {
            end(dataTask, with: .cancelled)
            return
        }
        if let progress {
            progress(TransferProgress(direction: .download, completedBytes: 0, totalBytes: nil))
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var tooLarge = false
        var redirect: TaskOutcome?
        let report = shared.withLock { shared -> (TransferProgress, @Sendable (TransferProgress) -> Void)? in
            guard let state = shared.tasks[ObjectIdentifier(dataTask)], state.failure == nil else { return nil }
            state.lastActivity = DispatchTime.now().uptimeNanoseconds
            if let kept = state.redirectBodyLimit, let response = state.response,
                state.data.count + data.count > kept
            {
                // A redirect's body beyond what is kept: the rest is not read.
                state.data.append(data.prefix(kept - state.data.count))
                redirect = TaskOutcome(response: response, data: state.data)
                return nil
            }
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
        if let redirect {
            end(dataTask, with: redirect)
        } else if tooLarge {
            end(dataTask, with: .cancelled)
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

    /// Cancels the timer once the session is invalidated, which releases the timer's hold on the
    /// delegate. Tasks that have not reported their end never will (FoundationNetworking drops its
    /// delegate on invalidation): they end as cancelled, and the temporary body files they may still
    /// read are released after the grace period.
    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        let (timer, left, files) = shared.withLock { shared in
            shared.isInvalidated = true
            shared.armedUntil = .max
            let left = Array(shared.tasks.values) + Array(shared.waiting.values)
            let files = shared.retired.values.compactMap(\.file) + left.compactMap(\.temporaryBodyFile)
            let engineTasks = shared.tasks.count + shared.retired.count
            Self.engineTasks.withLock { $0 -= engineTasks }
            shared.tasks.removeAll()
            shared.waiting.removeAll()
            shared.retired.removeAll()
            return (shared.timer.take(), left, files)
        }
        timer?.cancel()
        for state in left {
            state.completion(TaskOutcome(error: .cancelled))
        }
        if !files.isEmpty {
            engineQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(Self.retiredGrace))) {
                for file in files {
                    TemporaryBodyFiles.release(file)
                }
            }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (state, retired) = shared.withLock { shared in
            (
                shared.tasks.removeValue(forKey: ObjectIdentifier(task)),
                shared.retired.removeValue(forKey: ObjectIdentifier(task))
            )
        }
        if state != nil || retired != nil {
            Self.engineTasks.withLock { $0 -= 1 }
        }
        if let file = retired?.file ?? state?.temporaryBodyFile {
            TemporaryBodyFiles.release(file)
        }
        if let state {
            finish(state, error: error)
        }
    }

    /// Runs the completion of a task taken out of `tasks`, which ended with `error`.
    private func finish(_ state: TaskState, error: (any Error)?) {
        let response = state.response ?? (state.task?.response as? HTTPURLResponse)
        if let failure = state.failure {
            state.completion(TaskOutcome(error: failure))
        } else if let error {
            let url = state.task?.originalRequest?.url
            state.completion(TaskOutcome(error: Self.failure(for: error, afterHead: state.response != nil, url: url)))
        } else if let response {
            state.completion(TaskOutcome(response: response, data: state.data))
        } else {
            state.completion(TaskOutcome(error: ApiError.transport(.init(kind: .badResponse))))
        }
    }

    /// Refuses every redirect, so the `3xx` is the task's response: the session follows hops itself,
    /// with the same rules for every transport. Linux never sends a body again after a redirect (a 307
    /// POST goes out with `Content-Length: 0`, whatever the new request holds), and forwards every
    /// header to the new host.
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if !canImport(FoundationNetworking)
            switch challenge.protectionSpace.authenticationMethod {
            case NSURLAuthenticationMethodServerTrust:
                answerServerTrust(challenge, of: task, completionHandler: completionHandler)
                return
            case NSURLAuthenticationMethodClientCertificate:
                let credential = try? trust.clientCredential()
                completionHandler(credential == nil ? .performDefaultHandling : .useCredential, credential)
                return
            default:
                break
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
        // The 401 is the answer: the call ends with it now, and the challenge is cancelled afterwards.
        let state = takeOut(task)
        if let response {
            state?.completion(TaskOutcome(response: response, data: Data()))
        } else {
            state?.completion(TaskOutcome(error: .transport(.init(kind: .badResponse))))
        }
        engineQueue.async { completionHandler(.cancelAuthenticationChallenge, nil) }
    }

    #if canImport(FoundationNetworking)
        /// Answers connection-level challenges with the default handling: Linux waits forever for a
        /// challenge no session-level delegate answers. On Apple platforms the delegate leaves this out,
        /// so URLSession hands server-trust and client-certificate challenges to the task-level method,
        /// which knows the task a refused server ends.
        func urlSession(
            _ session: URLSession,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            completionHandler(.performDefaultHandling, nil)
        }
    #else
        /// Judges the server's chain with ``trust``: a refused server ends the task at once with
        /// ``ApiError/TransportFailure/Kind/tls`` (URLSession would report a refused challenge as
        /// cancelled).
        private func answerServerTrust(
            _ challenge: URLAuthenticationChallenge,
            of task: URLSessionTask,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            guard trust.server != .system else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            if let serverTrust = challenge.protectionSpace.serverTrust,
                trust.accepts(serverTrust, host: challenge.protectionSpace.host)
            {
                completionHandler(.useCredential, URLCredential(trust: serverTrust))
                return
            }
            takeOut(task)?.completion(TaskOutcome(error: .transport(.init(kind: .tls))))
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    #endif
}
