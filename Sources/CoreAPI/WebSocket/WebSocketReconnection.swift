/// When and how often a ``WebSocket`` opens its connection again after losing it. Off unless a
/// method's ``WebSocketOptions/reconnection`` sets one.
///
/// A connection is opened again when it ended without a close frame, or with a close code other than
/// ``WebSocketCloseCode/normalClosure`` from the server, or on a ping timeout — never after the
/// client closed it. Each attempt runs the whole opening handshake again, middlewares included, so
/// header and token middlewares give it fresh values. The reader gets
/// ``WebSocketEvent/reconnected(attempt:)`` before the first message of the new connection.
public struct WebSocketReconnection: Sendable, Hashable {
    /// The most attempts for one reconnection; the last failure is then thrown to the reader.
    public var maximumAttempts: Int
    /// The wait before the first attempt.
    public var initialDelay: Duration
    /// The longest wait between attempts; each wait doubles up to it.
    public var maximumDelay: Duration

    /// A reconnection policy.
    /// - Parameters:
    ///   - maximumAttempts: The most attempts for one reconnection; 5 by default.
    ///   - initialDelay: The wait before the first attempt; half a second by default.
    ///   - maximumDelay: The longest wait between attempts; 30 seconds by default.
    public init(
        maximumAttempts: Int = 5,
        initialDelay: Duration = .milliseconds(500),
        maximumDelay: Duration = .seconds(30)
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before attempt `attempt` (from 1): the initial delay doubled `attempt - 1` times, at most
    /// the maximum.
    public func delay(beforeAttempt attempt: Int) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(attempt, 1) where delay < maximumDelay {
            delay *= 2
        }
        return min(delay, maximumDelay)
    }
}
