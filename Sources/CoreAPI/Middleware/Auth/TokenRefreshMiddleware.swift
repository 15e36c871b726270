import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends an access token as `Authorization: Bearer <token>` and, when the server rejects it, gets a new
/// one and sends the request again.
///
/// The middleware holds the current ``token``; set it after a login or logout. On a rejection (a `401`
/// by default) it calls `refresh` with the rejected token and re-sends the request with the token
/// `refresh` returns, which becomes the current one:
///
/// - **One refresh at a time.** Requests rejected while a refresh is running wait for it instead of
///   starting another, and requests that start meanwhile wait before they are sent; all of them then go
///   out with the new token. Waiting requests can be cancelled one by one; the refresh goes on.
/// - **Stale rejections.** A request rejected with a token older than the current one (a refresh finished,
///   or ``token`` was set, after it was sent) is re-sent with the current token without a refresh.
/// - **Loop guard.** A request is re-sent at most once. If the re-sent request is rejected too, that
///   response is returned as it is, and the session reports ``ApiError/unauthorized(_:)``.
/// - **Refresh storms.** At most ``RefreshLimit/maximumCount`` refreshes start within
///   ``RefreshLimit/interval``; past that, a rejected response is returned as it is.
/// - **Failures.** When `refresh` throws, every request waiting for it fails with that error, unchanged
///   (an error that is not an ``ApiError`` ends the call as it is); the next rejection tries again.
///
/// A request that already has an `Authorization` field (a login method's own credentials) passes through
/// untouched and is never refreshed. Requests that `refresh` itself performs through a session with this
/// middleware also pass through untouched, so a refresh call through the same session cannot wait for
/// itself; this relies on task-local values, so `refresh` must not hand that work to a detached task.
///
/// Put an ``UnauthorizedMiddleware`` before this middleware in the chain (outer) so it sees only the final
/// rejections, after any refresh; put retrying middlewares before it too.
///
/// ```swift
/// let auth = TokenRefreshMiddleware(token: storedAccessToken) { rejected in
///     let tokens = try await authService.refresh(using: refreshToken)
///     return tokens.accessToken
/// }
/// let session = ApiSession(
///     hostProvider: hosts,
///     middlewares: [UnauthorizedMiddleware { _, _ in await logOut() }, auth]
/// )
/// ```
public final class TokenRefreshMiddleware: Middleware {
    /// The most refreshes that may start within a time window.
    public struct RefreshLimit: Sendable, Hashable {
        /// The most refreshes within ``interval``.
        public var maximumCount: Int
        /// The length of the window, in seconds.
        public var interval: Duration

        /// Creates a limit.
        /// - Parameters:
        ///   - maximumCount: The most refreshes within `interval`; zero or less means none.
        ///   - interval: The length of the window.
        public init(maximumCount: Int, interval: Duration) {
            self.maximumCount = maximumCount
            self.interval = interval
        }

        /// Five refreshes in 30 seconds.
        public static let `default` = RefreshLimit(maximumCount: 5, interval: .seconds(30))
    }

    private struct State {
        var token: String?
        /// One more each time the token changes, by a refresh or through ``token``.
        var generation = 0
        var refresh: RefreshOperation?
        /// When the refreshes inside the current window started.
        var refreshStarts: [ContinuousClock.Instant] = []
    }

    private enum Step {
        case send(TokenTicket)
        case wait(RefreshOperation)
        case refresh(RefreshOperation)
        case giveUp
    }

    /// The middlewares whose `refresh` the current task is running.
    @TaskLocal private static var refreshing: Set<ObjectIdentifier> = []

    private let state: LockedValue<State>
    private let refreshLimit: RefreshLimit?
    private let isUnauthorized: @Sendable (RawResponse, MiddlewareContext) -> Bool
    private let refresh: @Sendable (_ rejectedToken: String?) async throws -> String

    /// Creates the middleware.
    /// - Parameters:
    ///   - token: The current access token; `nil` sends requests without one until a refresh or until
    ///     ``token`` is set.
    ///   - refreshLimit: The most refreshes within a time window, or `nil` for no limit.
    ///   - isUnauthorized: Whether a response rejects the token; a `401` status by default.
    ///   - refresh: Returns a new access token given the rejected one (`nil` when the request had none).
    ///     It runs in a task of its own, so cancelling a waiting request does not cancel it.
    public init(
        token: String?,
        refreshLimit: RefreshLimit? = .default,
        isUnauthorized: @escaping @Sendable (RawResponse, MiddlewareContext) -> Bool = { response, _ in
            response.statusCode == 401
        },
        refresh: @escaping @Sendable (_ rejectedToken: String?) async throws -> String
    ) {
        self.state = LockedValue(State(token: token))
        self.refreshLimit = refreshLimit
        self.isUnauthorized = isUnauthorized
        self.refresh = refresh
    }

    /// The access token the next request is sent with.
    ///
    /// Set it after a login (the new token) or a logout (`nil`). Requests rejected with an earlier token
    /// are then re-sent with this one, and a refresh running meanwhile no longer replaces it.
    public var token: String? {
        get { state.withLock { $0.token } }
        set {
            state.withLock { state in
                state.token = newValue
                state.generation += 1
            }
        }
    }

    /// Handles one request: sends it with the current token and, when the token is rejected, once more
    /// with a new one.
    /// - Throws: the error of a failed refresh, unchanged; ``ApiError/cancelled`` when the call is
    ///   cancelled while it waits for a refresh; ``ApiError/invalidRequest(_:)`` for a token that is not a
    ///   valid header value; and whatever the rest of the chain throws.
    public func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        if request.headers["Authorization"] != nil
            || Self.refreshing.contains(ObjectIdentifier(self))
        {
            return try await next(request)
        }
        let sent = try await currentTicket()
        let response = try await next(try Self.authorizing(request, with: sent.token))
        guard isUnauthorized(response, context), let retry = try await ticket(afterRejecting: sent) else {
            return response
        }
        return try await next(try Self.authorizing(request, with: retry.token))
    }

    /// The token to send a new request with, after any refresh in progress.
    private func currentTicket() async throws -> TokenTicket {
        let (ticket, operation) = state.withLock { state in
            (TokenTicket(token: state.token, generation: state.generation), state.refresh)
        }
        if let operation {
            return try await operation.value()
        }
        return ticket
    }

    /// The token to re-send a request rejected with `rejected`, or `nil` to return the rejection.
    private func ticket(afterRejecting rejected: TokenTicket) async throws -> TokenTicket? {
        let now = ContinuousClock.now
        let step = state.withLock { state -> Step in
            if let operation = state.refresh {
                return .wait(operation)
            }
            if state.generation != rejected.generation {
                return .send(TokenTicket(token: state.token, generation: state.generation))
            }
            if let limit = refreshLimit {
                state.refreshStarts.removeAll { now - $0 >= limit.interval }
                guard state.refreshStarts.count < limit.maximumCount else { return .giveUp }
                state.refreshStarts.append(now)
            }
            let operation = RefreshOperation()
            state.refresh = operation
            return .refresh(operation)
        }
        switch step {
        case .send(let ticket):
            return ticket
        case .giveUp:
            return nil
        case .wait(let operation):
            return try await operation.value()
        case .refresh(let operation):
            startRefresh(operation, replacing: rejected)
            return try await operation.value()
        }
    }

    /// Runs `refresh` in a task of its own and hands the outcome to `operation`'s waiters.
    private func startRefresh(_ operation: RefreshOperation, replacing rejected: TokenTicket) {
        let refreshing = Self.refreshing.union([ObjectIdentifier(self)])
        Task { [refresh, state] in
            let result: Result<String, any Error>
            do {
                result = .success(
                    try await Self.$refreshing.withValue(refreshing) { try await refresh(rejected.token) }
                )
            } catch {
                result = .failure(error)
            }
            let outcome = state.withLock { state in
                state.refresh = nil
                return result.map { token in
                    // A token set through `token` while refreshing wins over the refreshed one.
                    if state.generation == rejected.generation {
                        state.token = token
                        state.generation += 1
                    }
                    return TokenTicket(token: state.token, generation: state.generation)
                }
            }
            operation.finish(outcome)
        }
    }

    /// `request` with `Authorization: Bearer <token>`, or unchanged when there is no token.
    private static func authorizing(_ request: ApiRequest, with token: String?) throws -> ApiRequest {
        guard let token else { return request }
        let value = "Bearer " + token
        guard Headers.isValidValue(value) else {
            throw ApiError.invalidRequest(.invalidHeader(name: "Authorization"))
        }
        var request = request
        request.headers.set(value, for: "Authorization")
        return request
    }
}

/// A token and the generation it belongs to.
private struct TokenTicket: Sendable {
    var token: String?
    var generation: Int
}

/// The outcome of one refresh, awaited by every request that needs it; cancelling one waiter ends only
/// its own wait.
private final class RefreshOperation: Sendable {
    private struct State {
        var outcome: Result<TokenTicket, any Error>?
        var waiters: [Int: CheckedContinuation<TokenTicket, any Error>] = [:]
        var lastWaiter = 0
    }

    private let state = LockedValue(State())

    /// The refreshed token, once the refresh ends.
    /// - Throws: the refresh's error, or ``ApiError/cancelled`` when the calling task is cancelled.
    func value() async throws -> TokenTicket {
        let id = state.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = state.withLock { state -> Result<TokenTicket, any Error>? in
                    if let outcome = state.outcome { return outcome }
                    // A cancellation that came before this point found no waiter to end.
                    if Task.isCancelled { return .failure(ApiError.cancelled) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let outcome {
                    continuation.resume(with: outcome)
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: ApiError.cancelled)
        }
    }

    /// Ends the refresh: every waiter, present and future, gets `outcome`.
    func finish(_ outcome: Result<TokenTicket, any Error>) {
        let waiters = state.withLock { state in
            state.outcome = outcome
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.resume(with: outcome)
        }
    }
}
