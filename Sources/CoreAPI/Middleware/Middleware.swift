/// One step of the ordered async chain every request of an ``ApiSession`` goes through.
///
/// A middleware receives the request about to be sent and `next`, which sends it through the rest of
/// the chain (and finally the network). It may change the request before calling `next`, return a
/// response without calling `next` at all (mocking), call `next` several times (retry, token refresh),
/// or look at what comes back (logging, metrics). Headers and tokens a middleware adds are read when the
/// request is sent — on every attempt — not when the method value is built.
///
/// The chain is the session's ``ApiSession/middlewares`` in order, then the method's own
/// ``CallOptions/middlewares``; the first one is the outermost. Status validation and parsing (the response
/// type's ``ApiResponse/process(response:data:error:)``) run after the whole chain, so middlewares see
/// every status code as a ``RawResponse``. Transport failures reach them as thrown ``ApiError`` values;
/// an error a middleware throws itself that is not an ``ApiError`` ends the call unchanged.
///
/// A call with middlewares runs in a task of its own, so that cancelling it through the session
/// (``ApiSession/cancelAllRequests()``, an ``ApiCall``'s handle) reaches a middleware wherever it waits —
/// a retry's back-off, a token refresh — since only task cancellation reaches such a wait. A middleware
/// whose only wait is `next` says so with ``waitsOnlyInNext``; when every middleware of a call says so,
/// the call runs in the caller's task, as a call without middlewares does, and a cancel reaches it
/// through the exchange.
///
/// Header fields left on the request are validated before it is sent: a name that is not a token or a
/// value with CR, LF or NUL fails the call with ``ApiError/invalidRequest(_:)`` and nothing is sent.
///
/// ```swift
/// struct RequestID: Middleware {
///     func intercept(
///         _ request: ApiRequest,
///         context: MiddlewareContext,
///         next: @Sendable (ApiRequest) async throws -> RawResponse
///     ) async throws -> RawResponse {
///         var request = request
///         request.headers.set(UUID().uuidString, for: "X-Request-ID")
///         return try await next(request)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// Handles one request.
    /// - Parameters:
    ///   - request: The request as the previous steps left it.
    ///   - context: The method being performed, the attempt number and the session.
    ///   - next: Sends a request through the rest of the chain; may be called more than once.
    /// - Returns: The raw response for the previous step.
    /// - Throws: ``ApiError`` for failures the rest of the chain reported, or an error of its own.
    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse

    /// Whether `next` is the only thing ``intercept(_:context:next:)`` waits for: it awaits no sleep,
    /// no actor, no closure of the user's, nothing that a cancel from the session could not end. A call
    /// whose middlewares all return `true` runs in the caller's task rather than a task of its own.
    /// `false` unless the middleware says otherwise; return `true` only when it holds for every path
    /// through `intercept`, or a cancel from the session would not reach the middleware's own wait.
    var waitsOnlyInNext: Bool { get }
}

extension Middleware {
    /// `false`: the middleware may wait on its own (see ``Middleware/waitsOnlyInNext``).
    public var waitsOnlyInNext: Bool { false }
}
