public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

extension ApiError {
    /// The status error for `response` when the current acceptable codes do not contain its status.
    public init?(unacceptable response: HTTPURLResponse, body: Data) {
        let status = response.statusCode
        guard !AcceptableStatusCodes.current.contains(status) else { return nil }
        let failure = StatusFailure(
            statusCode: status,
            headers: Headers(httpURLResponse: response),
            body: body,
            url: response.url
        )
        self = status == 401 ? .unauthorized(failure) : .unacceptableStatus(failure)
    }
}
