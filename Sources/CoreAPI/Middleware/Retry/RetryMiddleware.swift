package import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request again after a transient failure, as its ``RetryPolicy`` says.
///
/// Each attempt goes through the rest of the chain — the middlewares after this one and the network —
/// so headers they add (tokens, request IDs) are set afresh every time. Between attempts the middleware
/// waits with `Task.sleep`: cancelling the call (its task, its ``ApiSession/RequestHandle`` or
/// ``ApiSession/cancelAllRequests()``) during a wait ends it at once with ``ApiError/cancelled``, and a
/// cancelled call is never sent again. When the retries run out, the last outcome is returned as it is:
/// the response (which status validation then turns into ``ApiError/unacceptableStatus(_:)`` for a `503`)
/// or the error.
///
/// Put it first in the session's middlewares to retry the whole chain, or after middlewares (such as
/// logging) that should see each attempt. A method's or a call's ``CallOptions/retryPolicy`` changes the policy
/// for its own calls.
///
/// ```swift
/// let retry = RetryMiddleware(policy: RetryPolicy(maximumAttempts: 4)) { retry in
///     logger.info("\(retry)")  // "attempt 1 failed with status 503; retrying in 1.000 s (Retry-After)"
/// }
/// let session = ApiSession(hostProvider: hosts, middlewares: [retry])
/// ```
public struct RetryMiddleware: Middleware {
    /// One retry about to be made, as reported to the `onRetry` observer.
    public struct Retry: Sendable, Equatable, CustomStringConvertible {
        /// Why an attempt is retried.
        public enum Reason: Sendable, Equatable {
            /// The attempt got a response with this retryable status code.
            case status(Int)
            /// The attempt failed with this transport failure or timeout.
            case failure(ApiError)
        }

        /// The attempt that failed, from 1; the next one is `attempt + 1`.
        public var attempt: Int
        /// How long the middleware waits before the next attempt.
        public var delay: Duration
        /// Why the attempt is retried.
        public var reason: Reason
        /// Whether ``delay`` comes from the response's `Retry-After` field rather than the backoff.
        public var followsRetryAfter: Bool

        /// Creates a retry description.
        public init(attempt: Int, delay: Duration, reason: Reason, followsRetryAfter: Bool) {
            self.attempt = attempt
            self.delay = delay
            self.reason = reason
            self.followsRetryAfter = followsRetryAfter
        }

        /// A line for logs, such as `attempt 1 failed with status 503; retrying in 1.000 s (Retry-After)`.
        /// It contains no header values, URLs or bodies.
        public var description: String {
            let cause: String
            switch reason {
            case .status(let code): cause = "status \(code)"
            case .failure(let error): cause = error.description
            }
            return
                "attempt \(attempt) failed with \(cause); retrying in \(String(format: "%.3f", RetryPolicy.Backoff.seconds(of: delay))) s"
                + (followsRetryAfter ? " (Retry-After)" : "")
        }
    }

    /// The policy for calls whose method does not customize it.
    public let policy: RetryPolicy
    private let onRetry: (@Sendable (Retry) -> Void)?
    private let random: @Sendable () -> Double
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date

    /// Creates a retry middleware.
    /// - Parameters:
    ///   - policy: When to retry and how long to wait; the defaults of ``RetryPolicy`` unless given.
    ///   - onRetry: Called before each wait with the attempt that failed, the wait and the reason, for
    ///     logs and metrics; keep it short.
    public init(policy: RetryPolicy = RetryPolicy(), onRetry: (@Sendable (Retry) -> Void)? = nil) {
        self.init(policy: policy, onRetry: onRetry, random: { Double.random(in: 0..<1) })
    }

    /// Creates a retry middleware with a given source of randomness, clock and sleep, for tests.
    /// - Parameters:
    ///   - random: Returns a value in `0..<1` for the jitter of each backoff.
    ///   - sleep: Waits the given time; throws `CancellationError` when the task is cancelled.
    ///   - now: The current time, for `Retry-After` dates.
    package init(
        policy: RetryPolicy,
        onRetry: (@Sendable (Retry) -> Void)? = nil,
        random: @escaping @Sendable () -> Double,
        sleep: @escaping @Sendable (Duration) async throws -> Void = RetryPolicy.Backoff.sleep,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.policy = policy
        self.onRetry = onRetry
        self.random = random
        self.sleep = sleep
        self.now = now
    }

    /// Sends `request` through `next`, again after each retryable outcome the policy allows.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - context: The call; its method may customize the policy.
    ///   - next: The rest of the chain.
    /// - Returns: The last response.
    /// - Throws: The last error, or ``ApiError/cancelled`` when the call is cancelled while waiting.
    public func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let policy = context.options.retryPolicy?(policy) ?? policy
        let method = HTTPMethod(rawValue: request.method.rawValue)
        var attempt = 1
        while true {
            let outcome: Result<RawResponse, any Error>
            do {
                outcome = .success(try await next(request))
            } catch {
                outcome = .failure(error)
            }
            let retry = policy.retry(after: attempt, method: method, outcome: outcome, now: now(), random: random())
            guard let retry else {
                return try outcome.get()
            }
            if Task.isCancelled {
                throw ApiError.cancelled
            }
            onRetry?(retry)
            do {
                try await sleep(retry.delay)
            } catch {
                // The only error a sleep throws is CancellationError.
                throw ApiError.cancelled
            }
            if Task.isCancelled {
                throw ApiError.cancelled
            }
            attempt += 1
        }
    }
}
