package import Foundation

/// When and how often ``RetryMiddleware`` sends a request again, and how long it waits in between.
///
/// An attempt is retried while fewer than ``maximumAttempts`` were made and its outcome is transient:
///
/// - a response with one of the ``retryableStatusCodes`` to a request whose method is one of the
///   ``retryableMethods`` (by default the idempotent ones, which may safely be repeated);
/// - a transport failure of one of the ``retryableFailures`` kinds, or a ``ApiError/timeout`` when
///   ``retriesTimeouts`` is on, for the same methods. A request of any other method (such as `POST` or
///   `PATCH`) is retried only after a failure that proves it never reached the server:
///   ``ApiError/TransportFailure/Kind/cannotConnect`` (connection refused or unreachable) or
///   ``ApiError/TransportFailure/Kind/dns`` (the name did not resolve), both of which end before a
///   single byte of the request is written.
///
/// ``ApiError/cancelled`` and ``ApiError/invalidRequest(_:)`` are never retried, nor is an error a
/// middleware throws that is not an ``ApiError``.
///
/// **Waiting.** Before retry `n` (1 for the second attempt) the middleware waits the ``backoff``
/// `min(maximumDelay, initialDelay × factorⁿ⁻¹)`, spread by its jitter (see ``RetryPolicy/Backoff``). When the response carries a
/// valid `Retry-After` field (seconds or an HTTP-date, RFC 9110 §10.2.3) and ``honorsRetryAfter`` is
/// on, it waits exactly that long instead. A `Retry-After` longer than ``maximumRetryAfter`` ends the retries
/// and the response is returned as it is: the server said the request will not succeed before then, so
/// waiting only the cap would send a request it announced it would refuse (for a `429`, possibly
/// prolonging the limit), and waiting longer would hold the caller past any sensible deadline. The caller
/// gets the status at once, with the field in ``ApiError/StatusFailure/headers``, and can schedule a
/// later call itself.
///
/// ```swift
/// var policy = RetryPolicy(maximumAttempts: 4, backoff: RetryPolicy.Backoff(initialDelay: .milliseconds(200)))
/// policy.retryableStatusCodes.remove(500)
/// let session = ApiSession(hostProvider: hosts, middlewares: [RetryMiddleware(policy: policy)])
/// ```
///
/// A method or a call changes the policy for itself with ``CallOptions/retryPolicy``.
public struct RetryPolicy: Sendable, Equatable {
    /// The most attempts, the first one included; `1` (or less) means no retries. `3` by default.
    public var maximumAttempts: Int
    /// The waits between attempts without `Retry-After`: half a second, doubling up to 30 seconds, with
    /// ``RetryPolicy/Backoff/Jitter/equal`` jitter by default.
    public var backoff: RetryPolicy.Backoff
    /// The methods whose requests are retried after any retryable outcome; ``idempotentMethods`` by default.
    public var retryableMethods: Set<HTTPMethod>
    /// The status codes that are retried; `408`, `429`, `500`, `502`, `503` and `504` by default.
    public var retryableStatusCodes: Set<Int>
    /// The transport failures that are retried; connection refused (`cannotConnect`), connection lost and
    /// DNS failures by default. TLS, offline, bad-response and other failures are not transient enough.
    public var retryableFailures: Set<ApiError.TransportFailure.Kind>
    /// Whether a ``ApiError/timeout`` is retried (for ``retryableMethods`` only); `true` by default.
    public var retriesTimeouts: Bool
    /// Whether a valid `Retry-After` field on a retryable response sets the wait; `true` by default.
    public var honorsRetryAfter: Bool
    /// The longest `Retry-After` honoured; a longer one ends the retries. A minute by default.
    public var maximumRetryAfter: Duration

    /// The methods RFC 9110 §9.2.2 defines as idempotent: `GET`, `HEAD`, `OPTIONS`, `PUT`, `DELETE`, `TRACE`.
    public static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .options, .put, .delete, .trace]

    /// The transport failures that end before the request is sent, after which any method is retried.
    public static let unsentFailures: Set<ApiError.TransportFailure.Kind> = [.cannotConnect, .dns]

    /// A policy that never retries.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// Creates a policy; every parameter has the default described on its property.
    ///
    /// ```swift
    /// let policy = RetryPolicy(
    ///     maximumAttempts: 5,
    ///     backoff: RetryPolicy.Backoff(initialDelay: .seconds(1), maximumDelay: .seconds(20))
    /// )
    /// ```
    public init(
        maximumAttempts: Int = 3,
        backoff: RetryPolicy.Backoff = RetryPolicy.Backoff(),
        retryableMethods: Set<HTTPMethod> = RetryPolicy.idempotentMethods,
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableFailures: Set<ApiError.TransportFailure.Kind> = [.cannotConnect, .connectionLost, .dns],
        retriesTimeouts: Bool = true,
        honorsRetryAfter: Bool = true,
        maximumRetryAfter: Duration = .seconds(60)
    ) {
        self.maximumAttempts = maximumAttempts
        self.backoff = backoff
        self.retryableMethods = retryableMethods
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableFailures = retryableFailures
        self.retriesTimeouts = retriesTimeouts
        self.honorsRetryAfter = honorsRetryAfter
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// The wait before retry `retry` (1 for the second attempt) without `Retry-After`.
    /// - Parameters:
    ///   - retry: The number of the retry, from 1.
    ///   - random: A value in `0..<1` that places the wait within the jitter's range.
    /// - Returns: A wait between zero and the backoff's `maximumDelay`; NaN or negative settings count
    ///   as zero.
    package func backoffDelay(beforeRetry retry: Int, random: Double) -> Duration {
        backoff.delay(beforeRetry: retry, random: random)
    }

    /// Whether and after how long to retry once attempt `attempt` ended.
    /// - Parameters:
    ///   - attempt: The attempt that ended, from 1.
    ///   - method: The request's method.
    ///   - outcome: The response or the error the attempt produced.
    ///   - now: The current time, for a `Retry-After` date.
    ///   - random: A value in `0..<1` for the jitter.
    /// - Returns: The retry to make, or `nil` to return the outcome as it is.
    package func retry(
        after attempt: Int,
        method: HTTPMethod,
        outcome: Result<RawResponse, any Error>,
        now: Date,
        random: Double
    ) -> RetryMiddleware.Retry? {
        guard attempt < maximumAttempts else { return nil }
        let reason: RetryMiddleware.Retry.Reason
        let headers: Headers?
        switch outcome {
        case .success(let response):
            guard retryableMethods.contains(method), retryableStatusCodes.contains(response.statusCode) else {
                return nil
            }
            reason = .status(response.statusCode)
            headers = response.headers
        case .failure(ApiError.transport(let failure)):
            guard retryableFailures.contains(failure.kind),
                retryableMethods.contains(method) || Self.unsentFailures.contains(failure.kind)
            else { return nil }
            reason = .failure(.transport(failure))
            headers = nil
        case .failure(ApiError.timeout):
            guard retriesTimeouts, retryableMethods.contains(method) else { return nil }
            reason = .failure(.timeout)
            headers = nil
        case .failure(ApiError.unacceptableStatus(let failure)), .failure(ApiError.unauthorized(let failure)):
            // Thrown by a middleware closer to the network; treated like the response it describes.
            guard retryableMethods.contains(method), retryableStatusCodes.contains(failure.statusCode) else {
                return nil
            }
            reason = .status(failure.statusCode)
            headers = failure.headers
        default:
            // Cancellation, invalid requests, mapping failures and errors that are not ApiError values.
            return nil
        }
        if honorsRetryAfter, let headers, let seconds = RetryAfter.delay(in: headers, now: now) {
            let delay = RetryPolicy.Backoff.duration(seconds: seconds)
            guard delay <= maximumRetryAfter else { return nil }
            return RetryMiddleware.Retry(attempt: attempt, delay: delay, reason: reason, followsRetryAfter: true)
        }
        let delay = backoffDelay(beforeRetry: attempt, random: random)
        return RetryMiddleware.Retry(attempt: attempt, delay: delay, reason: reason, followsRetryAfter: false)
    }
}
