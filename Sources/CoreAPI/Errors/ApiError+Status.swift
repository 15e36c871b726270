public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ApiError {
    /// The status error for `response` when the current acceptable codes do not contain its status.
    public init?(unacceptable response: ResponseHead, body: Data) {
        self.init(unacceptable: response, body: body, acceptable: CallOptions.AcceptableStatusCodes.current)
    }

    /// The status error for `response` when `acceptable` does not contain its status:
    /// ``unauthorized(_:)`` for `401`, ``unacceptableStatus(_:)`` otherwise. Every status error CoreAPI
    /// makes comes from here.
    init?(unacceptable response: ResponseHead, body: Data, acceptable: CallOptions.AcceptableStatusCodes) {
        let status = response.statusCode
        guard !acceptable.contains(status) else { return nil }
        let failure = StatusFailure(response: response, body: body)
        self = status == 401 ? .unauthorized(failure) : .unacceptableStatus(failure)
    }
}

extension ApiError.StatusFailure {
    /// The failure of `response`: its status, header fields and URL (without query), and `body` capped
    /// at ``maximumBodySize`` bytes.
    init(response: ResponseHead, body: Data) {
        self.init(
            statusCode: response.statusCode,
            headers: response.headers,
            body: body,
            url: response.url
        )
    }
}
