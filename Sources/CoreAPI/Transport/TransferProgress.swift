/// How far a request has got with sending its body or receiving its response.
///
/// Pass a closure to ``ApiSession/perform(_:options:progress:)`` to receive these; it is called in order on the
/// thread that delivers the session's network events, so keep it short and never block in it (hop to
/// your own queue or actor for UI work).
public struct TransferProgress: Sendable, Hashable {
    /// Which way the bytes go.
    public enum Direction: Sendable, Hashable {
        /// The request body is being sent.
        case upload
        /// The response body is being received.
        case download
    }

    /// Which way the bytes go.
    public var direction: Direction
    /// The bytes sent or received so far.
    public var completedBytes: Int64
    /// The bytes expected in all, or `nil` when unknown (a download without `Content-Length`).
    public var totalBytes: Int64?

    /// Creates a progress value.
    public init(direction: Direction, completedBytes: Int64, totalBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// The fraction done, from 0 to 1, or `nil` when the total is unknown. An empty transfer is done.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}
