public import Foundation

/// An open WebSocket connection of an ``ApiSession`` (``ApiSession/webSocket(_:)``): send messages,
/// read ``events`` in order, close with a code and a reason.
///
/// Whatever the engine, it adds the same behaviour: a ping every ``WebSocket/Options/pingInterval``
/// with a ``WebSocket/Options/pingTimeout``, past which the connection is failed at once; messages over ``WebSocket/Options/maximumMessageSize``
/// refused; cancelling the task that reads ``events`` closes the connection
/// (``WebSocket/CloseCode/goingAway``); and, with ``WebSocket/Options/reconnection``, a lost connection
/// opened again through the whole opening handshake, reported as ``WebSocket/Event/reconnected(attempt:)``.
/// Dropping the last reference closes the connection too.
///
/// ```swift
/// let socket = try await session.webSocket(ChatSocket(room: "general"))
/// try await socket.send(.json(Outgoing(text: "hello")))
/// for try await event in socket.events {
///     if case .message(let message) = event {
///         print(try message.decode(Incoming.self).text)
///     }
/// }
/// ```
public final class WebSocket: Sendable {
    /// The URL connected to, without its query (which may carry a token).
    public let url: URL
    /// The connection's limits, keep-alive and reconnection.
    public let options: WebSocket.Options
    /// The encoder of ``send(json:encoder:)``: the method's ``WebSocket/Method/messageEncoder``.
    public let messageEncoder: JSONEncoder
    /// The decoder of ``decode(_:from:)``: the method's ``WebSocket/Method/messageDecoder``.
    public let messageDecoder: JSONDecoder

    private struct State {
        var connection: (any WebSocket.Connection)?
        /// Counts the connections, so a keep-alive loop stops when its connection was replaced.
        var generation = 0
        /// How the client closed the connection, once it did.
        var closedByClient: WebSocket.Closure?
        /// A failure found beside the reader (a ping timeout), reported by the reader.
        var pendingFailure: WebSocket.Failure?
        /// Reconnection attempts since the last message arrived: a server that accepts and drops again
        /// at once goes on counting, with growing delays, towards the policy's limit.
        var attemptsInARow = 0
        /// How the connection ended for good, once it did.
        var closure: WebSocket.Closure?
        var finished = false
        var keepAlive: Task<Void, Never>?
    }

    private let state = LockedValue(State())
    /// Opens a new connection, through the whole opening handshake.
    private let open: @Sendable () async throws -> any WebSocket.Connection

    init(
        url: URL,
        options: WebSocket.Options,
        coders: (encoder: JSONEncoder, decoder: JSONDecoder),
        connection: any WebSocket.Connection,
        open: @escaping @Sendable () async throws -> any WebSocket.Connection
    ) {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        self.url = components?.url ?? url
        self.options = options
        self.messageEncoder = coders.encoder
        self.messageDecoder = coders.decoder
        self.open = open
        install(connection)
    }

    deinit {
        let (connection, keepAlive) = state.withLock { ($0.finished ? nil : $0.connection, $0.keepAlive) }
        keepAlive?.cancel()
        if let connection {
            Task { await connection.close(WebSocket.Closure(code: .goingAway)) }
        }
    }

    /// The events of the connection in order: messages, reconnections, and last the closure. One reader
    /// at a time; cancelling its task closes the connection.
    public var events: WebSocket.Events { WebSocket.Events(socket: self) }

    /// How the connection ended, once the reader has seen it end: the code and reason of the close frame
    /// the server sent — its answer to the client's close frame too (RFC 6455 §7.1.5) — or
    /// ``WebSocket/CloseCode/abnormalClosure`` when none came.
    public var closure: WebSocket.Closure? { state.withLock { $0.closure } }

    /// Sends one message.
    /// - Throws: ``WebSocket/Failure/messageTooLarge(limit:)`` for a message over
    ///   ``WebSocket/Options/maximumMessageSize`` (nothing is sent); ``WebSocket/Failure/closed(_:)`` once
    ///   the connection is closed; the engine's ``WebSocket/Failure`` otherwise. While a lost connection is
    ///   being opened again, a send fails and is not queued.
    public func send(_ message: WebSocket.Message) async throws {
        guard message.size <= options.maximumMessageSize else {
            throw WebSocket.Failure.messageTooLarge(limit: options.maximumMessageSize)
        }
        let connection = try state.withLock { state -> any WebSocket.Connection in
            if let closure = state.closure ?? state.closedByClient { throw WebSocket.Failure.closed(closure) }
            guard let connection = state.connection else { throw WebSocket.Failure.connectionLost }
            return connection
        }
        try await connection.send(message)
    }

    /// Sends `value` as a JSON text message.
    /// - Parameters:
    ///   - value: The value to send.
    ///   - encoder: The encoder; ``messageEncoder``, the method's, when `nil` (the default).
    /// - Throws: As ``send(_:)``, and ``ApiError/invalidRequest(_:)`` when the value cannot be encoded.
    public func send<Value: Encodable>(json value: Value, encoder: JSONEncoder? = nil) async throws {
        try await send(.json(value, encoder: encoder ?? messageEncoder))
    }

    /// Decodes a message, text or binary, as JSON with ``messageDecoder``, the method's.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - message: The message.
    /// - Throws: ``ApiError/mapping(_:)`` naming the type, with the decoding error as its cause.
    public func decode<Value: Decodable>(_ type: Value.Type, from message: WebSocket.Message) throws -> Value {
        try message.decode(type, decoder: messageDecoder)
    }

    /// Closes the connection with `code` and `reason` and returns once the closing handshake is over:
    /// the server has answered with its close frame, or ``WebSocket/Options/closeTimeout`` has passed and
    /// the connection was cut. The reader then gets ``WebSocket/Event/closed(_:)`` with the code and
    /// reason of the server's close frame (RFC 6455 §7.1.5), or ``WebSocket/CloseCode/abnormalClosure``
    /// when none came. Does nothing when it is closed already.
    /// - Parameters:
    ///   - code: The close code; ``WebSocket/CloseCode/normalClosure`` by default.
    ///   - reason: The reason, at most 123 bytes of UTF-8; empty by default.
    public func close(_ code: WebSocket.CloseCode = .normalClosure, reason: String = "") async {
        let closure = WebSocket.Closure(code: code, reason: reason)
        let connection = state.withLock { state -> (any WebSocket.Connection)? in
            guard state.closedByClient == nil, state.closure == nil else { return nil }
            state.closedByClient = closure
            state.keepAlive?.cancel()
            return state.connection
        }
        await connection?.close(closure)
    }

    /// The next event for ``events``; `nil` once the closure was delivered or a failure thrown.
    func nextEvent() async throws -> WebSocket.Event? {
        while true {
            guard let connection = state.withLock({ $0.finished ? nil : $0.connection }) else { return nil }
            let event: WebSocket.Event
            do {
                event = try await withTaskCancellationHandler {
                    try await connection.receive()
                } onCancel: {
                    Task { await self.close(.goingAway) }
                }
                try Task.checkCancellation()
            } catch {
                if Task.isCancelled {
                    finish(WebSocket.Closure(code: .goingAway))
                    throw ApiError.cancelled
                }
                if let byClient = state.withLock({ $0.closedByClient }) {
                    // Closed by the client: the closure is the server's answer, or 1006 without one.
                    let closure = await closingHandshake(connection, byClient)
                    finish(closure)
                    return .closed(closure)
                }
                let failure =
                    state.withLock { $0.pendingFailure.take() } ?? (error as? WebSocket.Failure) ?? .connectionLost
                if failure == .connectionLost || failure == .pingTimeout,
                    let reconnected = try await reconnect(after: failure)
                {
                    return reconnected
                }
                if failure == .pingTimeout {
                    finish(WebSocket.Closure(code: .abnormalClosure))  // failed by the keep-alive: no handshake
                } else {
                    finish(await closingHandshake(connection, WebSocket.Closure(code: .goingAway)))
                }
                throw failure
            }
            switch event {
            case .message(let message):
                guard message.size <= options.maximumMessageSize else {
                    finish(await closingHandshake(connection, WebSocket.Closure(code: .messageTooBig)))
                    throw WebSocket.Failure.messageTooLarge(limit: options.maximumMessageSize)
                }
                state.withLock { $0.attemptsInARow = 0 }
                return event
            case .closed(let closure):
                let (byClient, pending) = state.withLock { ($0.closedByClient != nil, $0.pendingFailure.take()) }
                let reconnects = pending != nil || options.reconnection?.closeCodes.contains(closure.code) == true
                if !byClient, reconnects, let reconnected = try await reconnect(after: pending ?? .closed(closure)) {
                    return reconnected
                }
                if let pending, !byClient {
                    finish(closure)
                    throw pending
                }
                finish(closure)
                return event
            case .reconnected:
                continue  // an engine's mistake: reconnections are this type's
            }
        }
    }

    /// Completes the closing handshake of `connection` (RFC 6455 §7.1.5): sends a close frame with
    /// `closure` unless the client sent one already, waits for the server's, and returns its code and
    /// reason, or ``WebSocket/CloseCode/abnormalClosure`` when the connection ended without one. The
    /// engine cuts the connection after ``WebSocket/Options/closeTimeout``; the wait here is bounded too,
    /// for an engine that does not.
    private func closingHandshake(
        _ connection: any WebSocket.Connection,
        _ closure: WebSocket.Closure
    ) async -> WebSocket.Closure {
        do {
            return try await WebSocketTimeout.run(
                limit: options.closeTimeout * 2,
                error: WebSocket.Failure.connectionLost
            ) {
                await connection.close(closure)
                // Messages that arrive after the client's close frame are not delivered any more.
                while true {
                    if case .closed(let closure) = try await connection.receive() { return closure }
                }
            }
        } catch {
            return WebSocket.Closure(code: .abnormalClosure)
        }
    }

    /// Opens the connection again when ``WebSocket/Options/reconnection`` allows; `nil` when it is off.
    /// - Throws: The last attempt's error when every attempt failed; ``ApiError/cancelled`` when the
    ///   reader was cancelled while waiting.
    private func reconnect(after failure: WebSocket.Failure) async throws -> WebSocket.Event? {
        guard let policy = options.reconnection, policy.maximumAttempts > 0 else { return nil }
        state.withLock { $0.connection = nil }
        var lastError: any Error = failure
        var attempt = state.withLock { $0.attemptsInARow }
        while attempt < policy.maximumAttempts {
            attempt += 1
            state.withLock { [attempt] in $0.attemptsInARow = attempt }
            do {
                try await Task.sleep(for: policy.delay(beforeAttempt: attempt))
            } catch {
                finish(WebSocket.Closure(code: .goingAway))
                throw ApiError.cancelled
            }
            if let byClient = state.withLock({ $0.closedByClient }) {
                finish(byClient)
                return .closed(byClient)
            }
            do {
                let connection = try await open()
                if let byClient = state.withLock({ $0.closedByClient }) {
                    // Closed while this one was being opened: it is not kept.
                    await connection.close(byClient)
                    finish(byClient)
                    return .closed(byClient)
                }
                install(connection)
                return .reconnected(attempt: attempt)
            } catch {
                lastError = error
            }
        }
        finish(WebSocket.Closure(code: .abnormalClosure))
        throw lastError
    }

    /// Makes `connection` the current one and starts its keep-alive.
    private func install(_ connection: any WebSocket.Connection) {
        let generation = state.withLock { state -> Int in
            state.keepAlive?.cancel()
            state.connection = connection
            state.generation += 1
            return state.generation
        }
        guard let interval = options.pingInterval else { return }
        let timeout = options.pingTimeout
        let keepAlive = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, let self else { return }
                guard self.state.withLock({ $0.generation == generation && !$0.finished }) else { return }
                do {
                    try await WebSocketTimeout.run(limit: timeout, error: WebSocket.Failure.pingTimeout) {
                        try await connection.ping()
                    }
                } catch WebSocket.Failure.pingTimeout {
                    // The peer counts as dead, so the connection is failed (RFC 6455 §7.1.7), not closed
                    // with a handshake whose answer would never come; the reader reports the timeout.
                    self.state.withLock { $0.pendingFailure = .pingTimeout }
                    connection.abort(WebSocket.Closure(code: .goingAway, reason: "ping timeout"))
                    return
                } catch {
                    return  // the connection closed; the reader reports it
                }
            }
        }
        state.withLock { $0.keepAlive = keepAlive }
    }

    /// Ends the events with `closure`.
    private func finish(_ closure: WebSocket.Closure) {
        state.withLock { state in
            state.finished = true
            state.closure = state.closure ?? closure
            state.keepAlive?.cancel()
        }
    }
}

extension WebSocket {
    /// How a WebSocket connection ended: the close code and reason of the close frame, or
    /// ``WebSocket/CloseCode/abnormalClosure`` when the connection ended without one.
    public struct Closure: Sendable, Hashable {
        /// The close code.
        public var code: WebSocket.CloseCode
        /// The reason the closing side gave; empty when it gave none.
        public var reason: String

        /// A closure.
        public init(code: WebSocket.CloseCode, reason: String = "") {
            self.code = code
            self.reason = reason
        }
    }
}

extension WebSocket {
    /// What a ``WebSocket``'s ``WebSocket/events`` deliver, in order.
    public enum Event: Sendable, Hashable {
        /// A message from the server.
        case message(WebSocket.Message)
        /// The connection was lost and opened again (``WebSocket/Options/reconnection``); messages the
        /// server sent in between were not received, and messages sent while it was down failed.
        /// `attempt` counts the attempts since the last message arrived, from 1.
        case reconnected(attempt: Int)
        /// The connection closed with this code and reason; the last event.
        case closed(WebSocket.Closure)
    }
}

extension WebSocket {
    /// The events of a ``WebSocket``, in order, as an `AsyncSequence`: messages, reconnections, and last
    /// ``WebSocket/Event/closed(_:)``. It throws ``WebSocket/Failure`` for a failure the connection does not
    /// survive, and ``ApiError/cancelled`` when the reading task is cancelled (which closes the connection).
    public struct Events: AsyncSequence, Sendable {
        /// The element type.
        public typealias Element = WebSocket.Event

        let socket: WebSocket

        /// The iterator.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let socket: WebSocket

            /// The next event, or `nil` after the last.
            public mutating func next() async throws -> WebSocket.Event? {
                try await socket.nextEvent()
            }
        }

        /// An iterator over the events.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(socket: socket)
        }
    }
}

extension WebSocket {
    /// How a server answered a WebSocket opening handshake: with a connection, or with an HTTP response
    /// that refused it.
    public enum Upgrade: Sendable {
        /// The server switched protocols; the connection is open.
        case upgraded(any WebSocket.Connection)
        /// The server answered with another status, such as `401`; the response as it came, which the
        /// middlewares and then the session judge as for any request.
        case refused(RawResponse)
    }
}
