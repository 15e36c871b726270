/// The HTTP engine under an ``ApiSession``: sends one request and returns its response.
///
/// A transport is the only part of CoreAPI that touches the network. Everything above it — building
/// and validating the request, the middleware chain, redirects, secrets, the call's deadline and
/// cancellation, status validation and parsing — is done once by the session, the same for every
/// transport. CoreAPI ships ``URLSessionTransport`` (the default), `CoreAPITesting` a stub transport
/// for unit tests, and `CoreAPIAsyncHTTPClient`, with the package's `AsyncHTTPClient` trait, a
/// transport over AsyncHTTPClient.
///
/// A conforming type:
/// - sends `request` with its body from memory or, for ``ApiRequest/Body/file(_:)``, streamed from that
///   file (it never reads the whole file into memory), and its header fields as they are, repeated
///   names as separate fields;
/// - returns every response as it is, a `3xx` included: the session follows redirects itself;
/// - feeds each response to a ``ResponseCollector`` — the head, then the decoded body — and does what it
///   says. The collector holds the rules every engine shares: the head checks, the size limit on
///   decoded bytes, the first 64 KiB kept of a redirect's body, no body for `HEAD`, `204` and `304`,
///   handing the body to the options' ``TransportOptions/BodyHandler``, and progress;
/// - keeps time as its ``timing`` says: the idle timeout and the deadline of the ``TransportOptions``
///   are enforced through an ``ExchangeControl`` (``ExchangeControl/for(_:)`` gives it the process's one
///   timer when the session leaves the time to the transport);
/// - ends when the calling task is cancelled, throwing ``ApiError/cancelled``;
/// - throws only ``ApiError``: ``ApiError/transport(_:)`` with the kind of the fault, ``ApiError/timeout``,
///   ``ApiError/responseTooLarge(limit:)`` or ``ApiError/cancelled``. A connection that ends after the
///   response head and before the end of the body is ``ApiError/TransportFailure/Kind/connectionLost``
///   (which ``RetryPolicy`` retries for idempotent methods); a response that cannot be parsed or decoded
///   is ``ApiError/TransportFailure/Kind/badResponse``.
///
/// The body file belongs to the session: a temporary one is removed once the call has ended, which
/// can be while a cancelled transport is still winding down, so a transport reads it only while
/// ``send(_:options:)`` runs. A transport's cancellation handlers run on the thread that cancels — the
/// caller's, or the one timer that ends every deadline of the process — so they must not block.
///
/// How the session keeps time for the transport is the transport's ``timing``. By default the session
/// does not rely on a transport to end on time: a cancelled or timed-out call ends within milliseconds
/// however long the engine takes to clean up, and whatever the engine delivers afterwards is dropped. A
/// transport that reports its activity and ends when told (``ExchangeControl/Timing/endsWhenTold``) is awaited
/// directly instead, which saves a task per exchange. CoreAPI's own transports use nothing but this
/// public contract.
public protocol Transport: Sendable {
    /// How the transport's exchanges end on time, and so how the session runs them; see
    /// ``ExchangeControl/Timing``. The default is ``ExchangeControl/Timing/keptByTransport``.
    var timing: ExchangeControl.Timing { get }

    /// Sends one request and returns its response head and body.
    /// - Parameters:
    ///   - request: The request as built and as the middlewares left it, with its body in memory or in a
    ///     file.
    ///   - options: The limits, timeouts and progress handler of this exchange.
    /// - Returns: The response, whatever its status, with its body decoded from any content coding.
    /// - Throws: ``ApiError`` for every failure.
    func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse

    /// Performs a WebSocket opening handshake and returns the connection, or the response that refused
    /// it. Optional: by default it throws ``WebSocket/Failure/unavailable(reason:)``.
    ///
    /// The session has built `request` — a `GET` to a `ws` or `wss` URL with the session's and the
    /// method's header fields, as the middlewares left it — and runs this once per attempt of the
    /// chain. A conforming type adds the handshake's own fields (`Upgrade`, `Sec-WebSocket-Key`, …),
    /// checks the server's answer as RFC 6455 requires, and honours the calling task's cancellation.
    /// - Parameters:
    ///   - request: The opening handshake's request.
    ///   - options: The connection's limits; the engine enforces ``WebSocket/Options/maximumMessageSize``.
    /// - Returns: The open connection, or the HTTP response of a refusal.
    /// - Throws: ``ApiError`` when no response came (a transport failure, a timeout, cancellation), or
    ///   a ``WebSocket/Failure``.
    func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade
}

extension Transport {
    /// ``ExchangeControl/Timing/keptByTransport``: the session runs each exchange in a task of its own.
    public var timing: ExchangeControl.Timing { .keptByTransport }

    /// Throws ``WebSocket/Failure/unavailable(reason:)``: this transport opens no WebSockets.
    public func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade {
        throw WebSocket.Failure.unavailable(reason: "\(type(of: self)) does not open WebSocket connections")
    }
}
