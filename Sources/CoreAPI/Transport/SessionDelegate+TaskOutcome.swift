import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the session delegate reports for each task.
extension SessionDelegate {
    /// What one task produced: the response and its body, or the error it ended with.
    struct TaskOutcome: Sendable {
        var response: ResponseHead?
        var data = Data()
        var error: ApiError?
        /// The phases of the exchange, for ``RawResponse/phases``.
        var phases: ResponseTiming.Phases?

        init(response: ResponseHead, data: Data, phases: ResponseTiming.Phases? = nil) {
            self.response = response
            self.data = data
            self.phases = phases
        }

        init(error: ApiError) {
            self.error = error
        }

        /// The response, or the error thrown.
        func rawResponse() throws(ApiError) -> RawResponse {
            if let error { throw error }
            guard let response else { throw ApiError.transport(.init(kind: .badResponse)) }
            var raw = RawResponse(head: response, data: data)
            raw.phases = phases
            return raw
        }
    }
}
