import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turning an exchange's outcome into what the caller gets: the method's own status errors, the
/// response type's processing under the method's acceptable statuses, and the configured status messages.
extension ApiSession {
    /// The outcome of an exchange as the caller gets it: the method's own error for a status it lists in
    /// ``CallOptions/statusErrors``, else the method family's ``ApiMethod/statusError(for:)``; otherwise what the response type's
    /// ``ApiResponse/process(response:data:error:)`` decides with the method's acceptable status codes in
    /// effect, a status error carrying the configured message. A `401` is ``ApiError/unauthorized(_:)``
    /// in every case, with the service's own error, if any, as its ``ApiError/StatusFailure/serviceError``.
    ///
    /// It throws rather than returning a `Result`: a `Result` of a generic response type is a type
    /// the runtime looks up on each call.
    func process<M: ApiMethod>(
        _ outcome: Result<RawResponse, ApiError>,
        for method: M,
        settings: CallOptions
    ) throws -> M.Response {
        let (response, data, error): (ResponseHead?, Data?, ApiError?)
        switch outcome {
        case .success(let raw): (response, data, error) = (raw.head, raw.data, nil)
        case .failure(let failure): (response, data, error) = (nil, nil, failure)
        }
        let codes = settings.acceptableStatusCodes
        if let response, !codes.contains(response.statusCode) {
            let failure = ApiError.StatusFailure(response: response, body: data ?? Data())
            let errors = settings.statusErrors
            if !errors.isEmpty, let specific = errors.error(for: failure) {
                throw unauthorizedIfRejected(specific, failure: failure, settings: settings)
            }
            if let familyError = method.statusError(for: failure) {
                throw unauthorizedIfRejected(familyError, failure: failure, settings: settings)
            }
        }
        do {
            if codes == CallOptions.AcceptableStatusCodes.current {
                // Already in effect (usually the default, 2xx): no task-local value to bind.
                return try M.Response.process(response: response, data: data, error: error).get()
            }
            return try CallOptions.AcceptableStatusCodes.$current.withValue(codes) {
                try M.Response.process(response: response, data: data, error: error).get()
            }
        } catch let failure as ApiError {
            throw withStatusMessage(failure, settings: settings)
        } catch let serviceError {
            // A family that reads its error body in `process` threw its own error for a status.
            guard let response, !codes.contains(response.statusCode) else { throw serviceError }
            let failure = ApiError.StatusFailure(response: response, body: data ?? Data())
            throw unauthorizedIfRejected(serviceError, failure: failure, settings: settings)
        }
    }

    /// `serviceError`, the service's own error for a status the call does not accept, unless the status
    /// is `401`: a rejected credential is always ``ApiError/unauthorized(_:)`` — whichever way the
    /// service reads its error body — with the service's error kept in
    /// ``ApiError/StatusFailure/serviceError``, so that one `catch` handles every logout.
    private func unauthorizedIfRejected(
        _ serviceError: any Error,
        failure: ApiError.StatusFailure,
        settings: CallOptions
    ) -> any Error {
        guard failure.statusCode == 401, !(serviceError is ApiError) else { return serviceError }
        var failure = failure
        failure.serviceError = serviceError
        return withStatusMessage(.unauthorized(failure), settings: settings)
    }

    /// `error` with the message configured for its status when it is a status error that has none.
    private func withStatusMessage(_ error: ApiError, settings: CallOptions) -> ApiError {
        switch error {
        case .unacceptableStatus(var failure) where failure.message == nil:
            failure.message = statusMessage(for: failure.status, settings: settings)
            return .unacceptableStatus(failure)
        case .unauthorized(var failure) where failure.message == nil:
            failure.message = statusMessage(for: failure.status, settings: settings)
            return .unauthorized(failure)
        default:
            return error
        }
    }

    /// The call's message for `status`, else the session's.
    private func statusMessage(for status: HTTPStatus, settings: CallOptions) -> String? {
        settings.statusMessages[status] ?? defaults.statusMessages[status]
    }
}
