import Foundation

/// The settings of a call: its times, limits, accepted statuses and their errors, sharing, caching,
/// logging and middlewares.
///
/// A method type gives its calls their settings through ``ApiMethod/options``; one call can override
/// some of them with ``ApiSession/perform(_:options:progress:)``. Every setting left out keeps the value
/// of the level above it — the call's over the method's, the method's over the session's — so an
/// override names only what it changes:
///
/// ```swift
/// import CoreAPI
///
/// struct GetReport: ApiMethod {
///     typealias Response = Data
///     var hostProviderKey: String { "api" }
///     var path: String { "/report" }
///     var options: CallOptions {
///         CallOptions(timeout: .seconds(5), acceptableStatusCodes: [200, 404])
///     }
/// }
/// ```
///
/// Times are `Duration`s, so a bare number does not compile where a time is meant; a duration of
/// ``unlimited`` or longer means no limit.
public struct CallOptions: Sendable {
    /// The idle timeout: the longest wait for the response to start or for more of its body. `nil`
    /// means the session's (``ApiSession/defaults``, 60 seconds unless set); zero or a negative duration
    /// too.
    public var timeout: Duration?
    /// The longest the call may take in the network, redirects included. `nil` means the session's
    /// (``ApiSession/defaults``, 60 seconds unless set).
    public var deadline: Duration?
    /// The largest response body accepted, in bytes after content decoding. `nil` means the session's
    /// (``ApiSession/defaults``, 10 MiB unless set).
    public var maximumResponseSize: Int64?
    /// Errors for statuses of the method's own, thrown in place of the generic status error; none by
    /// default. A call's rules add to the method's, and win for the same status. See ``CallOptions/StatusErrors``.
    public var statusErrors: CallOptions.StatusErrors
    /// Messages for statuses the call does not accept, carried by its status errors and shown in their
    /// descriptions; they win over the session's ``ApiSession/defaults``. A call's add to the
    /// method's, and win for the same status.
    public var statusMessages: [HTTPStatus: String]
    /// A key that names the call while it is in flight, to find or cancel it
    /// (``ApiSession/cancelCalls(withKey:)``); `nil` by default. With ``sharesIdenticalCalls`` a key is
    /// also the word that one answer serves every identical request with that key, whatever its HTTP
    /// method: without a key only `GET` and `HEAD` requests share.
    public var callKey: CallKey?
    /// Middlewares for these calls alone, run after the session's (closer to the network): a method's
    /// after the session's, a call's after the method's. None by default.
    public var middlewares: [any Middleware]
    /// How a ``RetryMiddleware`` in the chain retries these calls: the middleware's own policy passes
    /// through it, and what it returns is used — ``RetryPolicy/never`` to opt out, or the policy with
    /// a change (`POST` made retryable for a request the server deduplicates). `nil` (the default)
    /// keeps the middleware's policy. A call's is applied after its method's.
    public var retryPolicy: (@Sendable (RetryPolicy) -> RetryPolicy)?

    /// The stored-only lookup this call is, for ``ApiSession/cachedThenFresh(_:cache:)``: answered from an
    /// ``HTTPCacheMiddleware``'s store or not at all (see ``StoredLookup``); `nil` for every other call.
    var storedLookup: StoredLookup?
    private var acceptable: CallOptions.AcceptableStatusCodes?
    private var logging: Bool?
    private var sharing: Bool?
    private var cache: HTTPCacheMiddleware.Policy?

    /// The status codes accepted as success; `200..<300` unless set.
    public var acceptableStatusCodes: CallOptions.AcceptableStatusCodes {
        get { acceptable ?? .successful }
        set { acceptable = newValue }
    }

    /// Whether logging middlewares report the call; `true` unless set. Turn it off for calls too
    /// frequent or too sensitive to log.
    public var isLoggingEnabled: Bool {
        get { logging ?? true }
        set { logging = newValue }
    }

    /// Whether a call joins an identical exchange already in flight instead of sending its own request;
    /// `false` unless set. Identical means the same on the wire: the same method type, ``callKey`` and
    /// limits, and a request with the same HTTP method, final URL (the host as resolved for this call),
    /// header fields — the session's, the method's and those every middleware set — and body bytes.
    /// Only `GET` and `HEAD` requests share, unless the call has a ``callKey``; a body sent from a file
    /// or a stream never shares. See <doc:WorkingWithManyCalls>.
    ///
    /// Each caller runs its own middleware chain and processes the answer itself; only the exchange
    /// with the server (and its redirects) is shared, run with the first caller's limits and progress
    /// closure (a caller that joins gets no progress), its priority and its task-local values. A caller
    /// that is cancelled leaves at once; the exchange is cancelled when its last caller leaves.
    public var sharesIdenticalCalls: Bool {
        get { sharing ?? false }
        set { sharing = newValue }
    }

    /// How an ``HTTPCacheMiddleware`` in the chain answers the call: by HTTP's rules
    /// (``HTTPCacheMiddleware/Policy/useHTTPSemantics``, unless set), or from the store, or from the network alone.
    public var cachePolicy: HTTPCacheMiddleware.Policy {
        get { cache ?? .useHTTPSemantics }
        set { cache = newValue }
    }

    /// Settings with every value given; each one left out keeps the level above's.
    /// - Parameters:
    ///   - timeout: The idle timeout; `nil` for the session's.
    ///   - deadline: The longest time in the network; `nil` for the session's.
    ///   - maximumResponseSize: The largest response body in bytes; `nil` for the session's.
    ///   - acceptableStatusCodes: The statuses accepted as success; `nil` for `200..<300` (or the
    ///     method's, in a call's override).
    ///   - statusErrors: Errors for statuses of the method's own.
    ///   - statusMessages: Messages for statuses not accepted.
    ///   - isLoggingEnabled: Whether logging middlewares report the call; `nil` for `true` (or the
    ///     method's).
    ///   - callKey: The key naming the call while it is in flight.
    ///   - sharesIdenticalCalls: Whether an identical exchange in flight is joined; `nil` for `false`
    ///     (or the method's).
    ///   - cachePolicy: How a cache middleware answers; `nil` for HTTP's rules (or the method's).
    ///   - middlewares: Middlewares for these calls alone.
    ///   - retryPolicy: How a retry middleware's policy changes for these calls.
    public init(
        timeout: Duration? = nil,
        deadline: Duration? = nil,
        maximumResponseSize: Int64? = nil,
        acceptableStatusCodes: CallOptions.AcceptableStatusCodes? = nil,
        statusErrors: CallOptions.StatusErrors = CallOptions.StatusErrors(),
        statusMessages: [HTTPStatus: String] = [:],
        isLoggingEnabled: Bool? = nil,
        callKey: CallKey? = nil,
        sharesIdenticalCalls: Bool? = nil,
        cachePolicy: HTTPCacheMiddleware.Policy? = nil,
        middlewares: [any Middleware] = [],
        retryPolicy: (@Sendable (RetryPolicy) -> RetryPolicy)? = nil
    ) {
        self.timeout = timeout
        self.deadline = deadline
        self.maximumResponseSize = maximumResponseSize
        self.acceptable = acceptableStatusCodes
        self.statusErrors = statusErrors
        self.statusMessages = statusMessages
        self.logging = isLoggingEnabled
        self.callKey = callKey
        self.sharing = sharesIdenticalCalls
        self.cache = cachePolicy
        self.middlewares = middlewares
        self.retryPolicy = retryPolicy
    }

    /// A duration this long or longer, as a timeout or a deadline, means no limit: 1,000,000 seconds.
    public static let unlimited = Duration.seconds(1_000_000)

    /// These settings with `overrides` on top: each value `overrides` sets wins, the others stay; status
    /// errors and messages are combined (the override's win for the same status), middlewares are
    /// appended, and the override's retry policy change applies after this one's.
    public func merging(_ overrides: CallOptions) -> CallOptions {
        var merged = self
        merged.timeout = overrides.timeout ?? timeout
        merged.deadline = overrides.deadline ?? deadline
        merged.maximumResponseSize = overrides.maximumResponseSize ?? maximumResponseSize
        merged.acceptable = overrides.acceptable ?? acceptable
        merged.statusErrors = statusErrors.merging(overrides.statusErrors)
        merged.statusMessages = statusMessages.merging(overrides.statusMessages) { _, override in override }
        merged.logging = overrides.logging ?? logging
        merged.callKey = overrides.callKey ?? callKey
        merged.sharing = overrides.sharing ?? sharing
        merged.cache = overrides.cache ?? cache
        merged.middlewares = middlewares + overrides.middlewares
        merged.storedLookup = overrides.storedLookup ?? storedLookup
        if let own = retryPolicy, let theirs = overrides.retryPolicy {
            merged.retryPolicy = { theirs(own($0)) }
        } else {
            merged.retryPolicy = overrides.retryPolicy ?? retryPolicy
        }
        return merged
    }
}

extension CallOptions {
    /// `duration` in seconds: `nil` for none given, `.infinity` for ``unlimited`` or longer.
    static func seconds(_ duration: Duration?) -> TimeInterval? {
        guard let duration else { return nil }
        if duration >= unlimited { return .infinity }
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The idle timeout in seconds, when one is set and positive.
    var timeoutSeconds: TimeInterval? {
        guard let seconds = Self.seconds(timeout), seconds > 0 else { return nil }
        return seconds
    }

    /// The deadline in seconds, when one is set.
    var deadlineSeconds: TimeInterval? { Self.seconds(deadline) }

    /// Whether these settings set nothing but the limits (timeout, deadline, size) and status messages:
    /// a session's defaults that do are not merged under each call's settings, which read them directly.
    var setsOnlyLimitsAndMessages: Bool {
        acceptable == nil && statusErrors.isEmpty && logging == nil && callKey == nil && sharing == nil
            && cache == nil && middlewares.isEmpty && retryPolicy == nil
    }
}
