import Foundation

extension RetryPolicy {
    /// How long to wait before each new attempt after failures in a row: an exponential backoff with a cap
    /// and jitter. The one rule behind ``RetryPolicy``, ``ServerSentEvents/Reconnection``, ``WebSocket/Reconnection`` and
    /// the automatic resumes of a download (``DownloadedFile/Options/resumeBackoff``).
    ///
    /// Before retry `n` (1 for the attempt after the first failure) the backoff is
    /// `min(maximumDelay, initialDelay × factorⁿ⁻¹)`, then spread by ``jitter`` so that clients that failed
    /// together do not come back together. With ``Jitter/none`` the waits are exact:
    ///
    /// ```swift
    /// let backoff = RetryPolicy.Backoff(initialDelay: .seconds(1), factor: 2, maximumDelay: .seconds(5), jitter: .none)
    /// (1...4).map { backoff.delay(beforeRetry: $0) }  // 1 s, 2 s, 4 s, 5 s
    /// ```
    ///
    /// A negative or NaN setting counts as zero, and every wait is finite and at most a billion seconds,
    /// so no setting can make a wait trap or last forever.
    public struct Backoff: Sendable, Hashable {
        /// How the backoff is spread so that clients that failed together do not retry together.
        public enum Jitter: Sendable, Hashable {
            /// Exactly the backoff.
            case none
            /// Half the backoff plus a uniformly random part of the other half: between `backoff / 2` and
            /// `backoff`. Keeps a floor under each wait while still spreading clients.
            case equal
            /// A uniformly random wait between zero and the backoff.
            case full
        }

        /// The backoff before the first retry; half a second by default.
        public var initialDelay: Duration
        /// The factor the backoff grows by with each retry; `2` by default, `1` for a constant backoff.
        public var factor: Double
        /// The longest backoff, the cap of every wait; 30 seconds by default.
        public var maximumDelay: Duration
        /// How the backoff is spread; ``Jitter/equal`` by default.
        public var jitter: Jitter

        /// The longest wait any setting gives, in seconds: about 31 years, short of any overflow.
        private static let longestSeconds = 1e9

        /// Creates a backoff; every parameter has the default described on its property.
        public init(
            initialDelay: Duration = .milliseconds(500),
            factor: Double = 2,
            maximumDelay: Duration = .seconds(30),
            jitter: Jitter = .equal
        ) {
            self.initialDelay = initialDelay
            self.factor = factor
            self.maximumDelay = maximumDelay
            self.jitter = jitter
        }

        /// A backoff that waits `delay` before every retry, without jitter.
        /// - Parameter delay: The wait.
        /// - Returns: A backoff with factor 1 and `delay` as both its first wait and its cap.
        public static func constant(_ delay: Duration) -> RetryPolicy.Backoff {
            RetryPolicy.Backoff(initialDelay: delay, factor: 1, maximumDelay: delay, jitter: .none)
        }

        /// The wait before retry `retry`, spread by ``jitter`` with the system's random numbers.
        /// - Parameter retry: The number of the retry, from 1; less counts as 1.
        /// - Returns: A wait between zero and ``maximumDelay``.
        public func delay(beforeRetry retry: Int) -> Duration {
            delay(beforeRetry: retry, random: Double.random(in: 0..<1))
        }

        /// The wait before retry `retry`, placed within the jitter's range by `random`.
        /// - Parameters:
        ///   - retry: The number of the retry, from 1; less counts as 1.
        ///   - random: A value in `0...1` that places the wait within the jitter's range (`0` the shortest,
        ///     `1` the longest); outside it, or NaN, counts as the nearest end (NaN as `0`).
        /// - Returns: A wait between zero and ``maximumDelay``.
        public func delay(beforeRetry retry: Int, random: Double) -> Duration {
            Self.duration(seconds: seconds(beforeRetry: retry, random: random))
        }

        /// `delay` held between zero and ``maximumDelay``: how long a wait a server asks for (a
        /// `Retry-After`, a server-sent `retry`) is at most honoured.
        /// - Parameter delay: The wait asked for.
        /// - Returns: The wait to make.
        public func capping(_ delay: Duration) -> Duration {
            Self.duration(seconds: min(Self.seconds(of: delay), Self.seconds(of: maximumDelay)))
        }

        /// ``delay(beforeRetry:random:)`` in seconds: finite, non-negative, at most ``maximumDelay``.
        package func seconds(beforeRetry retry: Int, random: Double) -> Double {
            let initial = Self.seconds(of: initialDelay)
            let cap = Self.seconds(of: maximumDelay)
            let growth = factor > 0 ? factor : 0
            // pow can reach infinity (never NaN here but for a NaN factor), which the cap absorbs.
            let grown = initial == 0 ? 0 : initial * pow(growth, Double(max(retry, 1) - 1))
            let backoff = min(grown.isNaN ? 0 : grown, cap)
            let unit = random.isNaN ? 0 : min(max(random, 0), 1)
            switch jitter {
            case .none: return backoff
            case .equal: return backoff / 2 + backoff / 2 * unit
            case .full: return backoff * unit
            }
        }

        /// `duration` in seconds, held between zero and a billion seconds.
        package static func seconds(of duration: Duration) -> Double {
            let (whole, fraction) = duration.components
            let seconds = Double(whole) + Double(fraction) / 1e18
            return min(max(seconds, 0), longestSeconds)
        }

        /// `seconds` as a duration; NaN or negative is zero, and more than a billion seconds is a billion.
        package static func duration(seconds: Double) -> Duration {
            guard seconds > 0 else { return .zero }
            return .nanoseconds(Int64((min(seconds, longestSeconds) * 1e9).rounded()))
        }

        /// Sleeps `delay` (at most a billion seconds) with `Task.sleep`.
        /// - Throws: `CancellationError` when the task is cancelled, before or during the wait.
        package static func sleep(_ delay: Duration) async throws {
            guard delay > .zero else {
                try Task.checkCancellation()
                return
            }
            try await Task.sleep(for: min(delay, .seconds(longestSeconds)))
        }
    }
}
