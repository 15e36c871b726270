/// A handle to one request started with ``ApiSession/perform(_:options:queue:progress:completion:)``.
public final class RequestHandle: Sendable {
    private let cancelCall: @Sendable () -> Void

    init(cancel: @escaping @Sendable () -> Void) {
        self.cancelCall = cancel
    }

    /// Cancels the request; its completion receives ``ApiError/cancelled`` unless it already finished.
    public func cancel() {
        cancelCall()
    }
}
