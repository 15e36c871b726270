/// When and how often a ``WebSocket`` opens its connection again after losing it. Off unless a
/// method's ``WebSocketOptions/reconnection`` sets one.
///
/// A connection is opened again when it ended without a close frame, on a ping timeout, or when the
/// server closed it with one of ``closeCodes`` (by default those that mean "try again": going away,
/// an abnormal end, a server error, a restart, try again later) — never after the client closed it,
/// nor after a normal closure or an application's own code (4000–4999). Each attempt runs the whole
/// opening handshake again, middlewares included, so header and token middlewares give it fresh
/// values. The reader gets ``WebSocketEvent/reconnected(attempt:)`` before the first message of the
/// new connection. Attempts count from the last message received, so a server that accepts and drops
/// at once meets growing delays and then the limit.
public struct WebSocketReconnection: Sendable, Hashable {
    /// The most attempts since the last message arrived; the last failure is then thrown to the reader.
    public var maximumAttempts: Int
    /// The wait before the first attempt.
    public var initialDelay: Duration
    /// The longest wait between attempts; each wait doubles up to it.
    public var maximumDelay: Duration
    /// The close codes from the server after which the connection is opened again.
    public var closeCodes: Set<WebSocketCloseCode>

    /// The close codes that mean the server may be reached again: 1001, 1006, 1011, 1012 and 1013.
    public static let retryableCloseCodes: Set<WebSocketCloseCode> = [
        .goingAway, .abnormalClosure, .internalServerError, .serviceRestart, .tryAgainLater,
    ]

    /// A reconnection policy.
    /// - Parameters:
    ///   - maximumAttempts: The most attempts for one reconnection; 5 by default.
    ///   - initialDelay: The wait before the first attempt; half a second by default.
    ///   - maximumDelay: The longest wait between attempts; 30 seconds by default.
    ///   - closeCodes: The server's close codes that lead to a reconnection; ``retryableCloseCodes`` by
    ///     default.
    public init(
        maximumAttempts: Int = 5,
        initialDelay: Duration = .milliseconds(500),
        maximumDelay: Duration = .seconds(30),
        closeCodes: Set<WebSocketCloseCode> = retryableCloseCodes
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.closeCodes = closeCodes
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
