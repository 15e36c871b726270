/// The HTTP engine under an ``ApiSession``: sends one request and returns its response.
///
/// Everything above it — building the request, middlewares, redirects, secrets, timeouts, cancellation,
/// status checks and parsing — is the session's, the same for every engine. A conforming type:
/// - sends the request as it is: header fields in order, repeated names apart, and the body from memory,
///   from its file (``ApiRequest/Body/file(_:)``, streamed, never read whole) or from its stream, and
///   reports upload progress to ``TransportOptions/progress`` as the body goes out;
/// - returns every response, a `3xx` included (the session follows redirects);
/// - feeds the response to a ``ResponseCollector`` — the head, then each decoded piece of the body — and
///   does what the collector says: it holds the size limit, the body handler, progress and the rules for
///   `HEAD`, `204`, `304` and redirect bodies;
/// - touches ``TransportOptions/control`` whenever a byte moves, and ends the exchange at once when the
///   control's ``ExchangeControl/onEnd(_:)`` handler runs (the handler must not block); an engine that
///   cannot stop runs behind ``DetachedTransport``;
/// - throws only ``ApiError``: ``ApiError/transport(_:)`` with the fault's kind (a connection that ends
///   after the head is ``ApiError/TransportFailure/Kind/connectionLost``), ``ApiError/timeout``,
///   ``ApiError/responseTooLarge(limit:)`` or ``ApiError/cancelled``.
///
/// A body file belongs to the session and may be removed once the call has ended, so a transport reads it
/// only while ``send(_:options:)`` runs. "Writing a transport" in the documentation has a whole engine.
public protocol Transport: Sendable {
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
    /// Throws ``WebSocket/Failure/unavailable(reason:)``: this transport opens no WebSockets.
    public func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade {
        throw WebSocket.Failure.unavailable(reason: "\(type(of: self)) does not open WebSocket connections")
    }
}
