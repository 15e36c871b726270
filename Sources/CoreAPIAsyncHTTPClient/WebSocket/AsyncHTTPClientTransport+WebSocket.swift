#if AsyncHTTPClient
    import AsyncHTTPClient
    public import CoreAPI
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL
    import NIOWebSocket

    /// WebSockets over SwiftNIO: the opening handshake and the frames are NIO's (`NIOWebSocket`), on the
    /// client's event loop group and with the transport's TLS configuration.
    extension AsyncHTTPClientTransport {
        /// The result of an opening handshake on a channel.
        enum Handshake: Sendable {
            case upgraded(NIOWebSocketConnection)
            case refused(EventLoopFuture<RawResponse>)
        }

        /// Connects to the `ws` or `wss` URL of `request`, sends the opening handshake with its header
        /// fields, and returns the connection, or the HTTP response of a refusal (its body up to 64 KiB).
        /// - Parameters:
        ///   - request: The opening handshake as the session built it.
        ///   - options: The connection's limits; a larger message closes it with 1009.
        /// - Returns: The connection, or the refusal.
        /// - Throws: `ApiError` when no answer came: a transport failure (`cannotConnect`, `tls`,
        ///   `dns`), `ApiError.cancelled`; `WebSocket.Failure.handshakeFailed(reason:)` for a `101` that
        ///   does not accept the key.
        public func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade {
            let url = request.url
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
                let host = components.host, !host.isEmpty
            else {
                throw ApiError.invalidRequest(.invalidURL(Secrets.Redaction().redact(url)))
            }
            let secure: Bool
            switch components.scheme?.lowercased() {
            case "ws": secure = false
            case "wss": secure = true
            default: throw ApiError.invalidRequest(.invalidURL(Secrets.Redaction().redact(url)))
            }
            let port = components.port ?? (secure ? 443 : 80)
            var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            if let query = components.percentEncodedQuery { target += "?" + query }

            // The handshake's fields go on the wire as they are, so they are checked here, as the session
            // checks an exchange's: a typed error for a bad one, nothing sent.
            try request.headers.validate()
            let bracketed = host.contains(":") ? "[\(host)]" : host
            let headers = HTTPHeaders(
                request.headers,
                addingUnlessPresent: "Host",
                value: components.port.map { "\(bracketed):\($0)" } ?? bracketed
            )
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
            let sslContext = try secure ? makeWebSocketSSLContext() : nil
            // NIO's frame decoder takes at most UInt32.max.
            let maximumSize = min(max(options.maximumMessageSize, 126), Int(UInt32.max))
            let closeTimeout = Self.timeAmount(options.closeTimeout)

            // The channel, once connected: closed when the caller is cancelled (the session's handshake
            // timeout cancels too) and whenever the handshake fails, so no socket is left behind.
            let channelBox = LockedValue<(any Channel)?>(nil)
            let closeChannel = { @Sendable in channelBox.withLock { $0 }?.close(promise: nil) }
            return try await withTaskCancellationHandler {
                let handshake: Handshake
                do {
                    let upgraded = try await ClientBootstrap(group: client.eventLoopGroup)
                        .connectTimeout(.seconds(10))
                        .connect(host: host, port: port) { channel in
                            channel.eventLoop.makeCompletedFuture {
                                channelBox.withLock { $0 = channel }
                                if let sslContext {
                                    let handler = try NIOSSLClientHandler(
                                        context: sslContext,
                                        serverHostname: Self.isIPAddress(host) ? nil : host
                                    )
                                    try channel.pipeline.syncOperations.addHandler(handler)
                                }
                                return try Self.configureUpgrade(
                                    on: channel,
                                    head: head,
                                    url: url,
                                    limits: (maximumSize, closeTimeout)
                                )
                            }
                        }
                    if Task.isCancelled { closeChannel() }
                    handshake = try await upgraded.get()
                } catch {
                    closeChannel()
                    if Task.isCancelled { throw ApiError.cancelled }
                    if let error = error as? WebSocket.Failure { throw error }
                    if let error = error as? NIOHTTPClientUpgradeError {
                        throw WebSocket.Failure.handshakeFailed(reason: "\(error)")
                    }
                    throw Self.apiError(forConnectionError: error)
                }
                switch handshake {
                case .upgraded(let connection):
                    return .upgraded(connection)
                case .refused(let response):
                    do {
                        return .refused(try await response.get())
                    } catch {
                        closeChannel()
                        if Task.isCancelled { throw ApiError.cancelled }
                        if let error = error as? ApiError { throw error }
                        throw ApiError.transport(.init(kind: .connectionLost, cause: error))
                    }
                }
            } onCancel: {
                closeChannel()
            }
        }

        /// Sets up the HTTP client pipeline that sends `head` and upgrades to WebSocket frames.
        /// - Parameter limits: The largest message, and how long the closing handshake may take.
        private static func configureUpgrade(
            on channel: any Channel,
            head: HTTPRequestHead,
            url: URL,
            limits: (maximumSize: Int, closeTimeout: TimeAmount)
        ) throws -> EventLoopFuture<Handshake> {
            let maximumSize = limits.maximumSize
            // Protocol errors are answered by WebSocketFrameHandler, which also tells the reader which.
            let upgrader = NIOTypedWebSocketClientUpgrader<Handshake>(
                maxFrameSize: maximumSize,
                enableAutomaticErrorHandling: false
            ) { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    let handler = WebSocketFrameHandler(
                        maximumMessageSize: maximumSize,
                        closeTimeout: limits.closeTimeout
                    )
                    // Before the frame decoder: a message over the limit is dropped before it, so the
                    // decoder can still read the server's close frame after it.
                    let decoder = try channel.pipeline.syncOperations.handler(
                        type: ByteToMessageHandler<WebSocketFrameDecoder>.self
                    )
                    try channel.pipeline.syncOperations.addHandler(
                        OversizedMessageFilter(maximumMessageSize: maximumSize),
                        position: .before(decoder)
                    )
                    try channel.pipeline.syncOperations.addHandler(
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0,
                            maxAccumulatedFrameCount: Int.max,
                            maxAccumulatedFrameSize: maximumSize
                        )
                    )
                    try channel.pipeline.syncOperations.addHandler(handler)
                    return .upgraded(
                        NIOWebSocketConnection(channel: channel, handler: handler, maximumMessageSize: maximumSize)
                    )
                }
            }
            var configuration = NIOUpgradableHTTPClientPipelineConfiguration(
                upgradeConfiguration: NIOTypedHTTPClientUpgradeConfiguration(
                    upgradeRequestHead: head,
                    upgraders: [upgrader]
                ) { channel in
                    // Not upgraded: collect the response the upgrade handler passes on once this returns.
                    channel.eventLoop.makeCompletedFuture {
                        let collector = RefusalCollector(url: url, promise: channel.eventLoop.makePromise())
                        try channel.pipeline.syncOperations.addHandler(collector)
                        return .refused(collector.promise.futureResult)
                    }
                }
            )
            // Frames the server sends right after its 101 arrive with it; they must not be dropped.
            configuration.leftOverBytesStrategy = .forwardBytes
            return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                configuration: configuration
            )
        }

        /// The TLS context of `wss` connections: the transport's configuration, which validates the
        /// server's certificate chain and host name.
        private func makeWebSocketSSLContext() throws -> NIOSSLContext {
            do {
                return try NIOSSLContext(configuration: tlsConfiguration)
            } catch {
                throw ApiError.transport(.init(kind: .tls, cause: error))
            }
        }

        /// `duration` as NIO counts time, in nanoseconds up to about 292 years.
        static func timeAmount(_ duration: Duration) -> TimeAmount {
            let (seconds, attoseconds) = duration.components
            guard seconds >= 0 else { return .zero }
            guard seconds < Int64.max / 1_000_000_000 - 1 else { return .nanoseconds(.max) }
            return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }

        /// Whether `host` is an IP address literal, which TLS must not send as the server name.
        private static func isIPAddress(_ host: String) -> Bool {
            (try? SocketAddress(ipAddress: host, port: 0)) != nil
        }

        /// The `ApiError` of a failure to connect or to finish the handshake, which keeps `error` as the
        /// transport failure's cause; an error of none of SwiftNIO's or AsyncHTTPClient's modules is
        /// `unknown(_:)`.
        private static func apiError(forConnectionError error: any Error) -> ApiError {
            if let error = error as? ApiError { return error }
            if error is CancellationError { return .cancelled }
            if error is NIOSSLError || error is BoringSSLError { return .transport(.init(kind: .tls, cause: error)) }
            if error is ChannelError, case .connectTimeout = error as? ChannelError { return .timeout }
            if error is NIOConnectionError || error is IOError {
                return .transport(.init(kind: .cannotConnect, cause: error))
            }
            guard isNetworkError(error) else { return .unknown(.init(error)) }
            return .transport(.init(kind: .connectionLost, cause: error))
        }
    }
#endif
