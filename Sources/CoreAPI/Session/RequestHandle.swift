#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// A handle to one request started with ``ApiSession/perform(_:queue:progress:completion:)``.
public final class RequestHandle: Sendable {
    private let cancelCall: @Sendable () -> Void

    init(cancel: @escaping @Sendable () -> Void) {
        self.cancelCall = cancel
    }

    /// Cancels the request; its completion receives ``ApiError/cancelled`` unless it already finished.
    public func cancel() {
        cancelCall()
    }
}

/// Holds the network task of one attempt so a cancellation that arrives first is not lost.
///
/// The task is cancelled on the session's task queue, never on the caller's thread: on Linux a cancel
/// waits for FoundationNetworking's work queue, callers are often threads of the concurrency pool, and
/// `cancelAllRequests()` cancels a thousand tasks from one thread.
final class HandleHolder: Sendable {
    private let state = LockedValue<(task: URLSessionTask?, isCancelled: Bool)>((nil, false))
    private let delegate: SessionDelegate
    private let queue: DispatchQueue

    init(delegate: SessionDelegate, queue: DispatchQueue) {
        self.delegate = delegate
        self.queue = queue
    }

    /// Whether the attempt was cancelled.
    var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    func attach(_ task: URLSessionTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        if cancelNow { delegate.cancel(task) }  // Only when cancelled while its task was being made.
    }

    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        if let task {
            queue.async { [delegate] in delegate.cancel(task) }
        }
    }
}
