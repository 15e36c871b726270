extension WebSocket {
    /// When and how often a ``WebSocket`` opens its connection again after losing it. Off unless a
    /// method's ``WebSocket/Options/reconnection`` sets one.
    ///
    /// A connection is opened again when it ended without a close frame, on a ping timeout, or when the
    /// server closed it with one of ``closeCodes`` (by default those that mean "try again": going away,
    /// an abnormal end, a server error, a restart, try again later) — never after the client closed it,
    /// nor after a normal closure or an application's own code (4000–4999). Each attempt runs the whole
    /// opening handshake again, middlewares included, so header and token middlewares give it fresh
    /// values. The reader gets ``WebSocket/Event/reconnected(attempt:)`` before the first message of the
    /// new connection. Attempts count from the last message received, so a server that accepts and drops
    /// at once meets growing delays and then the limit.
    public struct Reconnection: Sendable, Hashable {
        /// The most attempts since the last message arrived; the last failure is then thrown to the reader.
        public var maximumAttempts: Int
        /// The waits before the attempts: half a second, doubling up to 30 seconds, with
        /// ``RetryPolicy/Backoff/Jitter/equal`` jitter by default.
        public var backoff: RetryPolicy.Backoff
        /// The close codes from the server after which the connection is opened again.
        public var closeCodes: Set<WebSocket.CloseCode>

        /// The wait before the first attempt, before jitter: ``RetryPolicy/Backoff/initialDelay`` of ``backoff``.
        public var initialDelay: Duration {
            get { backoff.initialDelay }
            set { backoff.initialDelay = newValue }
        }
        /// The longest wait between attempts: ``RetryPolicy/Backoff/maximumDelay`` of ``backoff``.
        public var maximumDelay: Duration {
            get { backoff.maximumDelay }
            set { backoff.maximumDelay = newValue }
        }

        /// The close codes that mean the server may be reached again: 1001, 1006, 1011, 1012 and 1013.
        public static let retryableCloseCodes: Set<WebSocket.CloseCode> = [
            .goingAway, .abnormalClosure, .internalServerError, .serviceRestart, .tryAgainLater,
        ]

        /// A reconnection policy whose waits double from `initialDelay` up to `maximumDelay`, with
        /// ``RetryPolicy/Backoff/Jitter/equal`` jitter.
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
            closeCodes: Set<WebSocket.CloseCode> = retryableCloseCodes
        ) {
            self.init(
                maximumAttempts: maximumAttempts,
                backoff: RetryPolicy.Backoff(initialDelay: initialDelay, maximumDelay: maximumDelay),
                closeCodes: closeCodes
            )
        }

        /// A reconnection policy whose waits follow `backoff`.
        /// - Parameters:
        ///   - maximumAttempts: The most attempts for one reconnection; 5 by default.
        ///   - backoff: The waits before the attempts.
        ///   - closeCodes: The server's close codes that lead to a reconnection; ``retryableCloseCodes`` by
        ///     default.
        public init(
            maximumAttempts: Int = 5,
            backoff: RetryPolicy.Backoff,
            closeCodes: Set<WebSocket.CloseCode> = retryableCloseCodes
        ) {
            self.maximumAttempts = maximumAttempts
            self.backoff = backoff
            self.closeCodes = closeCodes
        }

        /// The wait before attempt `attempt` (from 1): ``backoff``'s wait before that retry, jitter included.
        public func delay(beforeAttempt attempt: Int) -> Duration {
            backoff.delay(beforeRetry: attempt)
        }
    }
}
