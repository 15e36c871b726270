import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the session delegate keeps for each task in flight.
extension SessionDelegate {
    /// One task's state; a class so chunks are appended in place. Guarded by the delegate's lock.
    final class TaskState {
        let task: URLSessionTask
        let completion: @Sendable (Exchange) -> Void
        let options: TaskOptions
        var progress: (@Sendable (TransferProgress) -> Void)? { options.progress }
        var temporaryBodyFile: URL? { options.temporaryBodyFile }
        /// A failure CoreAPI decided on (a refused redirect, a body too large), reported at completion.
        var failure: ApiError?
        /// The redirect to follow with a new task once this one ends.
        var followUp: Redirect?
        var bodyBytesSent: Int64 = 0
        var bodyBytesExpected: Int64 = -1
        var isCancelling = false
        var expectedLength: Int64?
        var response: HTTPURLResponse?
        var data = Data()
        var challengeResponse: HTTPURLResponse?
        let idleTimeout: UInt64
        var lastActivity: UInt64
        var timedOut = false
        /// When CoreAPI cancelled the task (uptime nanoseconds), or `nil`.
        var cancelledAt: UInt64?

        init(
            task: URLSessionTask,
            completion: @escaping @Sendable (Exchange) -> Void,
            options: TaskOptions,
            now: UInt64
        ) {
            self.task = task
            self.completion = completion
            self.options = options
            self.idleTimeout =
                options.idleTimeout < SessionDelegate.longestIdleTimeout
                ? UInt64(max(options.idleTimeout, 0) * 1_000_000_000) : .max
            self.lastActivity = now
        }

        /// When the task times out unless something is sent or received first (`.max`: never); once it
        /// is cancelled, when its call ends without waiting any longer for FoundationNetworking.
        func due(cancelGrace: UInt64) -> UInt64 {
            if let cancelledAt {
                return cancelledAt + cancelGrace
            }
            let (idleEnd, overflow) = lastActivity.addingReportingOverflow(idleTimeout)
            return min(overflow ? .max : idleEnd, options.deadline)
        }
    }
}
