import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the session delegate keeps for each task in flight.
extension SessionDelegate {
    /// One task's state; a class so chunks are appended in place. Guarded by the delegate's lock.
    final class TaskState {
        /// The task, once made.
        var task: URLSessionTask?
        let completion: @Sendable (TaskOutcome) -> Void
        let options: TransportOptions
        var progress: (@Sendable (TransferProgress) -> Void)? { options.progress }
        /// The temporary file the body is uploaded from, if any.
        let temporaryBodyFile: URL?
        /// A failure CoreAPI decided on (a body too large), reported when the task ends.
        var failure: ApiError?
        var bodyBytesSent: Int64 = 0
        var bodyBytesExpected: Int64 = -1
        var expectedLength: Int64?
        var response: HTTPURLResponse?
        var data = Data()
        /// For a redirect response, the most body bytes kept (see `SessionDelegate.redirectBodyLimit`).
        var redirectBodyLimit: Int?
        let idleTimeout: UInt64
        var lastActivity: UInt64

        init(
            completion: @escaping @Sendable (TaskOutcome) -> Void,
            options: TransportOptions,
            temporaryBodyFile: URL?,
            now: UInt64
        ) {
            self.completion = completion
            self.options = options
            self.temporaryBodyFile = temporaryBodyFile
            self.idleTimeout = options.idleTimeoutNanoseconds
            self.lastActivity = now
        }

        /// When the task times out unless something is sent or received first (`.max`: never).
        var due: UInt64 {
            let (idleEnd, overflow) = lastActivity.addingReportingOverflow(idleTimeout)
            return min(overflow ? .max : idleEnd, options.deadline.uptimeNanoseconds)
        }
    }

    /// What one task produced: the response and its body, or the error it ended with.
    struct TaskOutcome: Sendable {
        var response: HTTPURLResponse?
        var data = Data()
        /// For a redirect response, the most body bytes kept (see `SessionDelegate.redirectBodyLimit`).
        var redirectBodyLimit: Int?
        var error: ApiError?

        init(response: HTTPURLResponse, data: Data) {
            self.response = response
            self.data = data
        }

        init(error: ApiError) {
            self.error = error
        }

        /// The response, or the error thrown.
        func rawResponse() throws(ApiError) -> RawResponse {
            if let error { throw error }
            guard let response else { throw ApiError.transport(.init(kind: .badResponse)) }
            return RawResponse(response: response, data: data)
        }
    }
}
