extension ApiError {
    /// The kind of a failed call, coarse enough to act on app-wide — show an offline banner, sign out,
    /// count timeouts — and stable across platforms and releases: the one category scheme of the
    /// package's observers, logs, metrics, traces and batches (their `error.type` is its name).
    public enum Category: Sendable, Hashable, CaseIterable {
        /// The call's idle timeout or deadline passed (``ApiError/timeout``).
        case timeout
        /// The call was cancelled (``ApiError/cancelled``).
        case cancelled
        /// The server answered `401` (``ApiError/unauthorized(_:)``).
        case unauthorized
        /// The device has no network (``ApiError/TransportFailure/Kind/offline``).
        case offline
        /// The server could not be reached or the connection failed: name resolution, connect, TLS, a
        /// connection lost or a response that could not be read.
        case network
        /// The server answered with a status the method does not accept (other than `401`).
        case status
        /// Anything else: an invalid request, a response that could not be decoded, a refused redirect, a
        /// response over the size limit, an unknown error (``ApiError/unknown(_:)``), or an error a
        /// middleware threw.
        case other

        /// The category of `error`.
        public init(_ error: any Error) {
            guard let error = error as? ApiError else {
                self = error is CancellationError ? .cancelled : .other
                return
            }
            switch error {
            case .timeout: self = .timeout
            case .cancelled: self = .cancelled
            case .unauthorized: self = .unauthorized
            case .unacceptableStatus: self = .status
            case .transport(let failure): self = failure.kind == .offline ? .offline : .network
            case .invalidRequest, .unacceptableContentType, .mapping, .redirect, .responseTooLarge, .unknown,
                .streamBufferFull:
                self = .other
            }
        }
    }

    /// The error's category (see ``ApiError/Category``).
    public var category: ApiError.Category { ApiError.Category(self) }
}
