#if AsyncHTTPClient
    public import AsyncHTTPClient
    public import CoreAPI
    import Dispatch
    import Foundation
    import NIOCore
    import NIOHTTP1
    public import NIOSSL

    /// A `Transport` over AsyncHTTPClient (SwiftNIO), for servers and other places where
    /// `URLSession` is not wanted; build with the package's `AsyncHTTPClient` trait to get it.
    ///
    /// ```swift
    /// let transport = AsyncHTTPClientTransport()
    /// let session = ApiSession(hostProvider: hosts, transport: transport)
    /// let user = try await session.perform(GetUser(id: 42))
    /// try await transport.shutdown()
    /// ```
    ///
    /// It keeps the whole `Transport` contract: the session follows redirects (the client must not),
    /// bodies are decoded here — `gzip`, `x-gzip` and `deflate`, several stacked too — and counted
    /// against the size limit while they inflate, so a small body that inflates to gigabytes stops at
    /// the limit; the idle timeout and the deadline cover the whole exchange, body included; a body file
    /// is streamed from disk in chunks; and every failure is an `ApiError`.
    ///
    /// Every `https` request and `wss` connection carries the transport's TLS configuration, which
    /// always validates the server's certificate chain and host name (unless made with
    /// ``CertificateChecks/insecureAsConfigured``) and never negotiates less than TLS 1.2.
    ///
    /// **Who shuts the client down.** A transport made with `init(tlsConfiguration:)` owns its
    /// `HTTPClient`: `shutdown()` shuts it down, and so does releasing the transport. A client passed
    /// to `init(client:tlsConfiguration:certificateChecks:)` — `HTTPClient.shared` included — stays its creator's and is
    /// never shut down by the transport.
    public final class AsyncHTTPClientTransport: Transport {
        /// The client requests are sent with.
        public let client: HTTPClient

        /// Whether the transport made `client` and shuts it down.
        private let ownsClient: Bool
        /// The TLS configuration of every `https` request.
        let tlsConfiguration: TLSConfiguration
        /// Whether `shutdown()` was called.
        private let isShutDown = LockedValue(false)
        /// The connections the client opened, for the exchanges' phases and the event loops their
        /// delegates run on: only for a client the transport made, whose connection initializers it sets.
        private let connections: ConnectionLog?

        /// The content codings bodies are decoded from, lower-cased; a response with another one fails
        /// with `badResponse` before its body is read.
        public static let decodedContentCodings: Set<String> = ContentDecoder.codings

        /// The `Accept-Encoding` sent with a request that has none: the codings the transport decodes.
        static let acceptEncoding = "gzip, deflate"

        /// Creates a transport over a client of its own, made with `makeClientConfiguration()` on
        /// AsyncHTTPClient's shared event loop group; `shutdown()` shuts it down.
        /// - Parameters:
        ///   - tlsConfiguration: The TLS configuration of `https` requests, for trust roots or a client
        ///     certificate of your own. Its `minimumTLSVersion` is raised to TLS 1.2 when lower, and its
        ///     `certificateVerification` to `.fullVerification` unless `certificateChecks` is
        ///     ``CertificateChecks/insecureAsConfigured``.
        ///   - maximumConnectionsPerHost: How many HTTP/1.1 connections the client keeps open to one
        ///     host at most (AsyncHTTPClient's default is 8); more calls in flight wait for one of them.
        ///   - certificateChecks: Whether servers' certificates are always checked
        ///     (``CertificateChecks/enforced``, the default).
        public convenience init(
            tlsConfiguration: TLSConfiguration = .makeClientConfiguration(),
            maximumConnectionsPerHost: Int = 8,
            certificateChecks: CertificateChecks = .enforced
        ) {
            self.init(
                owning: Self.securing(tlsConfiguration, certificateChecks),
                maximumConnectionsPerHost: maximumConnectionsPerHost,
                pins: nil
            )
        }

        /// Creates a transport over a client of its own that judges servers and presents a client
        /// certificate as `trust` says; `shutdown()` shuts the client down.
        ///
        /// Public-key pins (`TLSTrust.Server.publicKeys(_:)`, `TLSTrust.Server.publicKeySHA256(_:roots:)`) are
        /// checked on each new connection once its handshake is done, against the key of the server's own
        /// certificate: a connection whose key is not pinned is closed before a request is written on it,
        /// and the calls waiting for it end at once with a `tls` transport failure whose cause is
        /// `TLSTrust.Failure.pinMismatch(host:)`.
        /// - Parameters:
        ///   - trust: Which servers are trusted, and the client certificate for mutual TLS.
        ///   - maximumConnectionsPerHost: How many HTTP/1.1 connections the client keeps open to one
        ///     host at most.
        /// - Throws: `TLSTrust.Failure` for a certificate, a pin or a client identity that cannot be read
        ///   (see `makeTLSConfiguration()`).
        public convenience init(trust: TLSTrust, maximumConnectionsPerHost: Int = 8) throws(TLSTrust.Failure) {
            let pins = try trust.pinnedKeyDigests()
            self.init(
                owning: Self.securing(try trust.makeTLSConfigurationCheckingPinsElsewhere(), .enforced),
                maximumConnectionsPerHost: maximumConnectionsPerHost,
                pins: pins.map(PinnedKeyCheck.init(digests:))
            )
        }

        /// Creates a transport over a client of its own, made with `makeClientConfiguration()`, `tls` and
        /// the check of `pins` on each new connection.
        private convenience init(
            owning tls: TLSConfiguration,
            maximumConnectionsPerHost: Int,
            pins: PinnedKeyCheck?
        ) {
            var configuration = Self.makeClientConfiguration()
            configuration.tlsConfiguration = tls
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(maximumConnectionsPerHost, 1)
            let connections = ConnectionLog()
            let opened: @Sendable (any Channel) -> EventLoopFuture<Void> = { channel in
                let checked = pins?.check(channel) ?? channel.eventLoop.makeSucceededVoidFuture()
                return checked.map { connections.opened(channel) }
            }
            configuration.http1_1ConnectionDebugInitializer = opened
            configuration.http2ConnectionDebugInitializer = opened
            self.init(
                client: HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration),
                ownsClient: true,
                tlsConfiguration: tls,
                connections: connections
            )
        }

        /// Creates a transport over `client`, which stays yours, that judges servers and presents a
        /// client certificate as `trust` says; see `init(client:tlsConfiguration:certificateChecks:)` for the client.
        /// - Parameters:
        ///   - client: The client requests are sent with.
        ///   - trust: Which servers are trusted, and the client certificate for mutual TLS.
        /// - Throws: `TLSTrust.Failure` for what the transport cannot enforce or read: public-key pins are
        ///   refused with `unsupported(transport:feature:)`, since they are checked by the connections of
        ///   a client the transport makes (`init(trust:maximumConnectionsPerHost:)`).
        public convenience init(client: HTTPClient, trust: TLSTrust) throws(TLSTrust.Failure) {
            self.init(client: client, tlsConfiguration: try trust.makeTLSConfiguration())
        }

        /// Creates a transport over `client`, which stays yours: the transport never shuts it down.
        ///
        /// Make the client with `makeClientConfiguration()`, or at least with
        /// `redirectConfiguration: .disallow` and `decompression: .disabled`. AsyncHTTPClient 1.37 sets
        /// both per client only and does not let the transport read a client's configuration, so they
        /// cannot be checked here:
        /// - a client that follows redirects (`HTTPClient.shared` does) bypasses the session's
        ///   `SessionPolicy`; a response reached through a redirect the client followed is refused
        ///   with `redirect(_:)` (`tooManyRedirects(limit:)`
        ///   with a limit of 0), though the request has reached the redirect's target by then;
        /// - a client that decompresses (`HTTPClient.shared` does) leaves `Content-Encoding` in the head,
        ///   so a compressed body fails with `badResponse`;
        /// - a client that retries failed connections (the default) holds a refused connection until its
        ///   connect timeout before failing with `cannotConnect`.
        /// - Parameters:
        ///   - client: The client requests are sent with.
        ///   - tlsConfiguration: The TLS configuration of `https` requests, which replaces the client's.
        ///     Its `minimumTLSVersion` is raised to TLS 1.2 when lower, and its `certificateVerification`
        ///     to `.fullVerification` unless `certificateChecks` is
        ///     ``CertificateChecks/insecureAsConfigured``.
        ///   - certificateChecks: Whether servers' certificates are always checked
        ///     (``CertificateChecks/enforced``, the default).
        public convenience init(
            client: HTTPClient,
            tlsConfiguration: TLSConfiguration = .makeClientConfiguration(),
            certificateChecks: CertificateChecks = .enforced
        ) {
            self.init(
                client: client,
                ownsClient: false,
                tlsConfiguration: Self.securing(tlsConfiguration, certificateChecks),
                connections: nil
            )
        }

        private init(
            client: HTTPClient,
            ownsClient: Bool,
            tlsConfiguration: TLSConfiguration,
            connections: ConnectionLog?
        ) {
            self.client = client
            self.ownsClient = ownsClient
            self.tlsConfiguration = tlsConfiguration
            self.connections = connections
        }

        deinit {
            // An HTTPClient released before it is shut down leaks its connections (and traps in debug
            // builds). No exchange is in flight: each one holds the transport while it runs.
            if ownsClient && !isShutDown.current {
                client.shutdown(queue: .global()) { _ in }
            }
        }

        /// The configuration of the client `init(tlsConfiguration:)` makes, for a client of your own
        /// to pass to `init(client:tlsConfiguration:certificateChecks:)`: redirects are not followed (the session follows
        /// them), bodies are not decompressed by the client (the transport decodes them), a refused
        /// connection fails at once instead of being retried until the connect timeout, and the client
        /// makes no tracing span of its own (see `disableTracing(of:)`).
        ///
        /// AsyncHTTPClient's connect timeout also bounds how long a request waits for a connection of
        /// the pool (8 per host): with more calls in flight, the rest would fail after 10 s though
        /// nothing is wrong. Here it is a day: the call's idle timeout and deadline, which the transport
        /// enforces from the moment the call starts, bound the wait and the connect alike.
        public static func makeClientConfiguration() -> HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration(
                tlsConfiguration: securing(.makeClientConfiguration(), .enforced),
                redirectConfiguration: .disallow,
                decompression: .disabled
            )
            configuration.timeout.connect = .hours(24)
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.networkFrameworkWaitForConnectivity = false
            disableTracing(of: &configuration)
            return configuration
        }

        /// Shuts down the client the transport made: exchanges still in flight end with
        /// `cancelled`, and later ones fail with `sessionInvalidated`.
        /// A client passed to `init(client:tlsConfiguration:certificateChecks:)` is left running, though the transport
        /// sends nothing more. Calling it again does nothing.
        /// - Throws: The error AsyncHTTPClient reports for its shutdown.
        public func shutdown() async throws {
            let first = isShutDown.withLock { isShutDown in
                defer { isShutDown = true }
                return !isShutDown
            }
            guard first, ownsClient else { return }
            try await client.shutdown()
        }

        /// Sends `request` and reads its response, ending the exchange when its control ends it (a cancel,
        /// the idle timeout or the deadline) or, with no session, when the calling task is cancelled.
        /// - Parameters:
        ///   - request: The request, with its body in memory or in a file to stream from.
        ///   - options: The limits, timeouts and progress handler of this exchange.
        /// - Returns: The response as it is, a `3xx` included, with its body decoded.
        /// - Throws: `ApiError`.
        public func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            if isShutDown.current {
                throw ApiError.invalidRequest(.sessionInvalidated)
            }
            if Task.isCancelled {
                throw ApiError.cancelled
            }
            let exchange = TrackedExchange(options: options)
            defer { exchange.end() }
            do {
                if options.control != nil {
                    // The session ends the control on a cancel of the calling task.
                    return try await self.exchange(request, exchange: exchange, options: options)
                }
                return try await withTaskCancellationHandler {
                    try await self.exchange(request, exchange: exchange, options: options)
                } onCancel: {
                    exchange.end(.cancelled)
                }
            } catch {
                if let reason = exchange.endReason {
                    throw reason
                }
                if error is PinnedKeyCheck.Mismatch {
                    let host = request.url.host ?? ""
                    throw ApiError.transport(.init(kind: .tls, cause: TLSTrust.Failure.pinMismatch(host: host)))
                }
                if Task.isCancelled {
                    throw ApiError.cancelled
                }
                throw Self.failure(for: error, afterHead: exchange.hasHead)
            }
        }

        /// How many times a request is sent again after its connection turned out closed before it
        /// reached the server (see `isStale(_:method:sentBody:)`).
        static let maximumStaleRetries = 2

        /// Sends `request` with the client and reads the response through an `ExchangeDelegate`; a request
        /// that met a connection the server had closed is sent again, up to `maximumStaleRetries` times.
        ///
        /// Each attempt has a body of its own, closed when the attempt ends: AsyncHTTPClient may still ask
        /// for a chunk of a failed attempt's body, and nothing is read from the file after that.
        @inline(__always)
        private func exchange(
            _ request: ApiRequest,
            exchange: TrackedExchange,
            options: TransportOptions
        ) async throws -> RawResponse {
            let url = request.url
            let method = request.method.rawValue
            let headers = HTTPHeaders(
                request.headers,
                addingUnlessPresent: "Accept-Encoding",
                value: Self.acceptEncoding
            )
            var retries = 0
            while true {
                // AsyncHTTPClient deconstructs the URL here: the scheme and port are read from that rather
                // than parsed out of the URL again.
                var outgoing = try HTTPClient.Request(url: url, method: HTTPMethod(rawValue: method), headers: headers)
                if outgoing.useTLS {
                    outgoing.tlsConfiguration = tlsConfiguration
                }
                // The loop of an open connection to the server, when the log knows one (see `ConnectionLog`).
                let loop = connections?.wait(exchange, port: outgoing.port) ?? client.eventLoopGroup.any()
                defer { connections?.stopWaiting(exchange) }
                let body = try OutgoingBody.make(for: request, exchange: exchange, eventLoops: client.eventLoopGroup)
                defer { body?.close() }
                outgoing.body = body?.clientBody(on: loop)
                let delegate = ExchangeDelegate(
                    url: url,
                    method: request.method,
                    options: options,
                    exchange: exchange,
                    connections: connections,
                    loop: loop
                )
                // No deadline for the client: the control ends the exchange on time, waiting for a connection
                // included, and cancels the request.
                let task = client.execute(request: outgoing, delegate: delegate, eventLoop: .delegate(on: loop))
                exchange.onEnd { _ in task.cancel() }
                var kept: RawResponse?
                do {
                    // The future's own `get()`, which SwiftNIO makes inlinable, is specialised here; the
                    // task's `get()` is compiled in AsyncHTTPClient for any response, and looks up the
                    // metadata of each generic type it touches on every request. The response itself
                    // reaches the exchange (`ExchangeDelegate.didFinishRequest`).
                    try await task.futureResult.get()
                } catch let early as ExchangeDelegate.Kept {
                    kept = early.response
                } catch
                    where retries < Self.maximumStaleRetries && !exchange.hasHead && exchange.endReason == nil
                    && Self.isStale(error, method: method, sentBody: body?.hasHandedOverBytes ?? false)
                {
                    retries += 1
                    continue
                }
                guard let raw = exchange.response(kept: kept, knowsConnections: connections != nil) else {
                    throw ApiError.transport(.init(kind: .other, cause: nil))  // a task that succeeded delivers
                }
                return raw
            }
        }
    }
#endif
