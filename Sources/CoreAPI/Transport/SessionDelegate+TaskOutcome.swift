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

        init(response: ResponseHead, data: Data) {
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
            return RawResponse(head: response, data: data)
        }
    }
}
