import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the session delegate reports for each task.
extension SessionDelegate {
    /// What one task produced: the response and its body, or the error it ended with.
    ///
    /// One `Result` of the response, whose phases sit in a box of their own: an outcome is handed from
    /// the delegate's queue through the waiting call's continuation, and a small value is copied cheaply
    /// (with the phases and an optional error held inline it was many times larger).
    struct TaskOutcome: Sendable {
        let result: Result<RawResponse, ApiError>

        init(response: ResponseHead, data: Data, phases: ResponseTiming.Phases? = nil) {
            var raw = RawResponse(head: response, data: data)
            if let phases {
                raw.phases = phases
            }
            result = .success(raw)
        }

        init(error: ApiError) {
            result = .failure(error)
        }

        /// The error the task ended with, if it did not end with a response.
        var error: ApiError? {
            if case .failure(let error) = result { return error }
            return nil
        }

        /// The response head, if the task ended with a response.
        var response: ResponseHead? {
            try? result.get().head
        }

        /// The body, empty unless the task ended with a response.
        var data: Data {
            (try? result.get().data) ?? Data()
        }

        /// The response, or the error thrown.
        func rawResponse() throws(ApiError) -> RawResponse {
            try result.get()
        }
    }
}
