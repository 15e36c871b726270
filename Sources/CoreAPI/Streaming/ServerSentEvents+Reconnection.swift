extension ServerSentEvents {
    /// When ``ApiSession/events(_:reconnection:)`` opens a stream of server-sent events again.
    ///
    /// A stream is opened again when its connection ends — normally, or lost, or idle for longer than the
    /// idle timeout, or when it could not connect. A status error, or a response that is not
    /// `text/event-stream`, is never retried.
    ///
    /// **Waiting.** The waits follow ``backoff``: after a stream that ended normally, its first wait;
    /// after `n` failures in a row, its wait before retry `n`, growing up to its cap. A `retry` field the
    /// stream sent replaces the backoff's first wait, held to the backoff's ``RetryPolicy/Backoff/maximumDelay`` (so a
    /// server cannot park the client for an hour) and then grown and spread like it.
    ///
    /// **Giving up.** After ``maximumFailures`` failures in a row (10 by default) the events end with the
    /// last error; a connection that opens with an accepted status starts the count again.
    ///
    /// ```swift
    /// let reconnection = ServerSentEvents.Reconnection(
    ///     backoff: RetryPolicy.Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(20)),
    ///     maximumFailures: 5
    /// )
    /// ```
    public struct Reconnection: Sendable, Hashable {
        /// The failures in a row tolerated by default: 10.
        public static let defaultMaximumFailures = 10

        /// The default waits: three seconds at first (the reconnection time of browsers' `EventSource`),
        /// doubling up to 30 seconds, with ``RetryPolicy/Backoff/Jitter/equal`` jitter.
        public static let defaultBackoff = RetryPolicy.Backoff(
            initialDelay: .seconds(3),
            factor: 2,
            maximumDelay: .seconds(30)
        )

        /// The waits before opening the stream again; its cap also caps the stream's own `retry`.
        public var backoff: RetryPolicy.Backoff
        /// How many failed attempts in a row are tolerated before the events end with the last error; a
        /// successful connection starts the count again. ``defaultMaximumFailures`` by default.
        public var maximumFailures: Int

        /// The first wait before opening the stream again, unless the stream asked for another with `retry`:
        /// ``RetryPolicy/Backoff/initialDelay`` of ``backoff``.
        public var delay: Duration {
            get { backoff.initialDelay }
            set { backoff.initialDelay = newValue }
        }

        /// Creates a reconnection rule.
        /// - Parameters:
        ///   - backoff: The waits; ``defaultBackoff`` by default.
        ///   - maximumFailures: The failures in a row tolerated; ``defaultMaximumFailures`` by default.
        public init(backoff: RetryPolicy.Backoff = defaultBackoff, maximumFailures: Int = defaultMaximumFailures) {
            self.backoff = backoff
            self.maximumFailures = maximumFailures
        }

        /// Creates a reconnection rule whose waits start at `delay` and grow like ``defaultBackoff``'s, up to
        /// 30 seconds (or `delay`, when longer).
        /// - Parameters:
        ///   - delay: The first wait.
        ///   - maximumFailures: The failures in a row tolerated; ``defaultMaximumFailures`` by default.
        public init(delay: Duration, maximumFailures: Int = defaultMaximumFailures) {
            var backoff = Self.defaultBackoff
            backoff.initialDelay = delay
            backoff.maximumDelay = Swift.max(delay, backoff.maximumDelay)
            self.init(backoff: backoff, maximumFailures: maximumFailures)
        }

        /// The wait before opening the stream again.
        /// - Parameters:
        ///   - failures: The failures in a row so far; `0` after a stream that ended normally.
        ///   - serverRetry: The last `retry` the stream sent, if any.
        ///   - random: A value in `0...1` for the jitter.
        /// - Returns: The backoff's wait before retry `max(failures, 1)`, starting from `serverRetry` held to
        ///   the backoff's cap when there is one.
        package func delay(afterFailures failures: Int, serverRetry: Duration?, random: Double) -> Duration {
            var backoff = backoff
            if let serverRetry {
                backoff.initialDelay = backoff.capping(serverRetry)
            }
            return backoff.delay(beforeRetry: Swift.max(failures, 1), random: random)
        }
    }
}
