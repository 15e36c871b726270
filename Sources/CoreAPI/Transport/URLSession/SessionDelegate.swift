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
/// Linux truncates `URLRequest.timeoutInterval` to whole seconds (0.5 s fires at once, 1.5 s after one
/// second), so the idle timeout and the deadline are not left to the engine: every response and body
/// chunk touches the exchange's ``ExchangeControl``, and the process's one timer ends the exchange
/// through it. The delegate's own timer only forgets ended tasks that never report.
///
/// A task CoreAPI ends — timed out, cancelled, or over the size limit — reports its outcome at once and
/// is cancelled afterwards; whatever FoundationNetworking reports for it later is ignored, so a busy
/// work queue never holds a call. Redirects are refused, so the `3xx` is the task's response: Linux
/// forwards every header to any host a redirect names and replays a 307 POST with an empty body, so the
/// session follows hops itself. Of a redirect's body only the first ``HeadChecks/redirectBodyLimit``
/// bytes are kept; the task ends as soon as more arrives. (FoundationNetworking itself reads a redirect's
/// whole body before it tells the delegate anything, and reports none of its bytes while it does.)
///
/// The delegate is a thin shell around ``ResponseCollector``, which holds the rules every engine applies
/// to a response (head checks, the size limit, redirect bodies, body handlers), and the
/// errors tasks end with are named from what the transport knows (see ``failure(for:afterHead:url:)``).
///
/// On Linux the delegate methods run on FoundationNetworking's work queue (see ``DelegateQueue``), so
/// they never call into FoundationNetworking synchronously: cancelling a task, and answering a
/// challenge with a cancel, go through `engineQueue`. FoundationNetworking 6.3.1 cancels a task with
/// a synchronous call into its work queue, which can be busy for seconds, so the timer has a queue of
/// its own that such a call never holds up.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// What the delegate's lock guards.
    struct Shared {
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
    static let retiredGrace: UInt64 = 10_000_000_000

    /// The tasks of every transport of the process that FoundationNetworking may be busy with: in
    /// flight, or ended by CoreAPI and not reported yet. FoundationNetworking serves them all on one
    /// work queue; while there are none, making a task there answers at once.
    static let engineTasks = LockedValue(0)

    let shared = LockedValue(Shared())
    let timerQueue = DispatchQueue(label: "CoreAPI.URLSessionTransport.timeouts")
    /// Where the delegate calls into FoundationNetworking: cancelling tasks, answering challenges.
    let engineQueue = DispatchQueue(label: "CoreAPI.URLSessionTransport.cancels")

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

    /// Holds an exchange whose task is about to be made; `completion` runs once, when the task ends or
    /// when CoreAPI ends the exchange (its `control`, `options.control` unless given, keeps its time:
    /// the activity reported here, the idle timeout and the deadline, the time spent making the task
    /// included). Hand the task to ``attach(_:to:)`` once made.
    ///
    /// `body` is the body the task reads as a stream, which each rewind the engine asks for is answered
    /// with anew (see `urlSession(_:task:needNewBodyStream:)`).
    func reserve(
        options: TransportOptions,
        control: ExchangeControl? = nil,
        method: HTTPMethod = .get,
        temporaryBodyFile: ApiRequest.File? = nil,
        body: RewindableBody? = nil,
        completion: @escaping @Sendable (TaskOutcome) -> Void
    ) -> TaskState {
        let state = TaskState(
            completion: completion,
            options: options,
            control: control ?? options.control,
            method: method,
            temporaryBodyFile: temporaryBodyFile?.url,
            truncatesBodyFile: temporaryBodyFile?.isWrittenForOneAttempt ?? false,
            body: body
        )
        if let temporaryBodyFile = temporaryBodyFile?.url {
            // Held from now on: the call may end, and discard the file, while the task is being made.
            TemporaryBodyFiles.retain(temporaryBodyFile)
        }
        shared.withLock { shared in
            shared.waiting[ObjectIdentifier(state)] = state
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
        completeUnstarted(state, with: error)
    }

    /// Ends the exchange of `state` with `reason` (``ApiError/cancelled`` or ``ApiError/timeout``) at
    /// once, whether its task is made yet or not; does nothing when it already ended.
    ///
    /// Whether the task is attached is read under the lock that ``attach(_:to:)`` holds, so an end that
    /// comes while FoundationNetworking makes the task either finds the exchange still waiting — and the
    /// task, once made, is never started — or finds the task.
    ///
    /// The call ends here, and the task's `cancel()` runs on ``engineQueue``: on Linux it waits for
    /// FoundationNetworking's work queue, the caller is often a thread of the concurrency pool, and
    /// cancelling every call of a session cancels a thousand tasks from one thread.
    func end(exchangeOf state: TaskState, with reason: ApiError) {
        let (wasWaiting, task) = shared.withLock { shared -> (Bool, URLSessionTask?) in
            if shared.waiting.removeValue(forKey: ObjectIdentifier(state)) != nil { return (true, nil) }
            return (false, state.task)
        }
        if wasWaiting {
            completeUnstarted(state, with: reason)
        } else if let task {
            end(task, with: reason)  // at once; the engine's cancel runs on a queue of its own
        }
    }

    /// Completes an exchange taken out of the waiting ones before its task started.
    private func completeUnstarted(_ state: TaskState, with error: ApiError) {
        if let file = state.temporaryBodyFile {
            TemporaryBodyFiles.release(file)
        }
        state.completion(TaskOutcome(error: error))
    }

    /// Registers a task already made; see ``reserve(options:control:method:temporaryBodyFile:body:completion:)``.
    func register(
        _ task: URLSessionTask,
        options: TransportOptions,
        completion: @escaping @Sendable (TaskOutcome) -> Void
    ) {
        _ = attach(task, to: reserve(options: options, completion: completion))
    }

    /// Ends `task` with `error` at once, then cancels it: its call never waits for FoundationNetworking
    /// to acknowledge the cancel.
    func cancel(_ task: URLSessionTask) {
        end(task, with: .cancelled)
    }

    /// Removes the state of `task`, which CoreAPI ends before it reported its end; the task, and its
    /// temporary body file if any, stay held until it does.
    func takeOut(_ task: URLSessionTask) -> TaskState? {
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
    /// here it happened often enough to matter. For a temporary body file the session wrote for this
    /// attempt alone, the file is first cut to zero bytes, so no further chunk is read and the body can
    /// never complete, and the task is cancelled a moment later, once any read in flight has finished.
    func end(_ task: URLSessionTask, with error: ApiError) {
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
    func end(_ task: URLSessionTask, with outcome: TaskOutcome) {
        guard let state = takeOut(task) else { return }
        state.completion(outcome)
        engineQueue.async { task.cancel() }
    }

    /// How many tasks are in flight.
    var taskCount: Int {
        shared.withLock { $0.tasks.count }
    }

    /// How many exchanges each of the per-task tables holds: tasks in flight, exchanges whose task is
    /// being made, and ended tasks that have not reported their end. All are empty once every call has
    /// ended and FoundationNetworking has reported every task.
    var tableCounts: (tasks: Int, waiting: Int, retired: Int) {
        shared.withLock { ($0.tasks.count, $0.waiting.count, $0.retired.count) }
    }

    /// The tasks in flight.
    var activeTasks: [URLSessionTask] {
        shared.withLock { $0.tasks.values.compactMap(\.task) }
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
}
