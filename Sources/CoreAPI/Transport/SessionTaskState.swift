import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the session delegate keeps for each task in flight.
extension SessionDelegate {
    /// One task's state; a class so chunks are appended in place. Guarded by the delegate's lock.
    final class TaskState: @unchecked Sendable {  // its fields are read and written under the delegate's lock only
        /// The task, once made.
        var task: URLSessionTask?
        let completion: @Sendable (TaskOutcome) -> Void
        let options: TransportOptions
        var progress: (@Sendable (TransferProgress) -> Void)? { options.progress }
        /// The temporary file the body is uploaded from, if any.
        let temporaryBodyFile: URL?
        /// Whether that file may be cut to zero bytes when the task is ended early: it was written for
        /// this attempt alone.
        let truncatesBodyFile: Bool
        /// A failure CoreAPI decided on (a body too large), reported when the task ends.
        var failure: ApiError?
        var bodyBytesSent: Int64 = 0
        var bodyBytesExpected: Int64 = -1
        var expectedLength: Int64?
        var response: ResponseHead?
        var data = Data()
        /// For a redirect response, the most body bytes kept (see `HeadChecks.redirectBodyLimit`).
        var redirectBodyLimit: Int?
        /// Whether the body goes to the options' ``ResponseBodyHandler`` rather than into ``data``.
        var streams = false
        /// How many body bytes went to the handler.
        var streamedBytes: Int64 = 0
        /// Whether the task is suspended until its stream's reader has made room (Apple only): idle
        /// time does not count meanwhile.
        var isWaitingForReader = false
        let idleTimeout: UInt64
        var lastActivity: UInt64

        init(
            completion: @escaping @Sendable (TaskOutcome) -> Void,
            options: TransportOptions,
            temporaryBodyFile: URL?,
            truncatesBodyFile: Bool,
            now: UInt64
        ) {
            self.completion = completion
            self.options = options
            self.temporaryBodyFile = temporaryBodyFile
            self.truncatesBodyFile = truncatesBodyFile
            self.idleTimeout = options.idleTimeoutNanoseconds
            self.lastActivity = now
        }

        /// When the task times out unless something is sent or received first (`.max`: never).
        var due: UInt64 {
            let since = isWaitingForReader ? DispatchTime.now().uptimeNanoseconds : lastActivity
            let (idleEnd, overflow) = since.addingReportingOverflow(idleTimeout)
            return min(overflow ? .max : idleEnd, options.deadline.uptimeNanoseconds)
        }
    }
}
