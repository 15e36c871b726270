public import CoreAPI
import Foundation

extension StubTransport {
    /// The server's side of one in-memory WebSocket connection of a ``StubTransport``: what a test
    /// scripts (messages to the client, a close, a dropped connection, unanswered pings) and what it
    /// checks (the client's messages, pings and close).
    ///
    /// ```swift
    /// let peer = StubTransport.WebSocketPeer()
    /// transport.onWebSocket("/chat") { _ in .accept(peer) }
    /// let socket = try await session.webSocket(ChatSocket())
    /// try await socket.send(.text("hello"))
    /// #expect(await peer.nextReceived() == .text("hello"))
    /// peer.send(.text("welcome"))
    /// peer.close(WebSocket.CloseCode(rawValue: 4001), reason: "bye")
    /// ```
    public final class WebSocketPeer: Sendable {
        /// What the client reads next.
        enum Outgoing: Sendable {
            case message(WebSocket.Message)
            case close(WebSocket.Closure)
            case drop
        }

        private struct State {
            var outgoing: [Outgoing] = []
            var reader: CheckedContinuation<Outgoing, Never>?
            var received: [WebSocket.Message] = []
            var receivedRead = 0
            var receivedWaiter: CheckedContinuation<WebSocket.Message?, Never>?
            var pingWaiters: [CheckedContinuation<Bool, Never>] = []
            var answersPings: Bool
            var pings = 0
            var clientClosure: WebSocket.Closure?
            /// What the client reads once the connection is closed.
            var end: Outgoing?
            var isClosed = false
        }

        private let state: LockedValue<State>

        /// A peer.
        /// - Parameter answersPings: Whether the client's pings get a pong; `true` by default.
        public init(answersPings: Bool = true) {
            state = LockedValue(State(answersPings: answersPings))
        }

        /// Whether the client's pings get a pong. Turning it on answers the pings waiting.
        public var answersPings: Bool {
            get { state.withLock { $0.answersPings } }
            set {
                let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
                    state.answersPings = newValue
                    guard newValue else { return [] }
                    defer { state.pingWaiters = [] }
                    return state.pingWaiters
                }
                waiters.forEach { $0.resume(returning: true) }
            }
        }

        /// Sends `message` to the client.
        public func send(_ message: WebSocket.Message) {
            deliver(.message(message))
        }

        /// Closes the connection from the server's side with a close frame of `code` and `reason`.
        public func close(_ code: WebSocket.CloseCode, reason: String = "") {
            deliver(.close(WebSocket.Closure(code: code, reason: reason)))
        }

        /// Ends the connection without a close frame, as a dropped TCP connection does.
        public func drop() {
            deliver(.drop)
        }

        /// The client's messages so far, in order.
        public var received: [WebSocket.Message] {
            state.withLock { $0.received }
        }

        /// The client's next message not returned before; `nil` once the connection is closed.
        public func nextReceived() async -> WebSocket.Message? {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> WebSocket.Message?? in
                    if state.receivedRead < state.received.count {
                        state.receivedRead += 1
                        return .some(state.received[state.receivedRead - 1])
                    }
                    if state.isClosed { return .some(nil) }
                    state.receivedWaiter = continuation
                    return .none
                }
                if case .some(let message) = ready {
                    continuation.resume(returning: message)
                }
            }
        }

        /// How many pings the client sent.
        public var pings: Int {
            state.withLock { $0.pings }
        }

        /// The close code and reason the client sent, once it closed the connection.
        public var clientClosure: WebSocket.Closure? {
            state.withLock { $0.clientClosure }
        }

        /// Whether the connection is closed, by either side.
        public var isClosed: Bool {
            state.withLock { $0.isClosed }
        }

        // MARK: The client's side, for the connection

        /// Queues `item` for the client, or hands it to the waiting reader.
        private func deliver(_ item: Outgoing) {
            let reader = state.withLock { state -> CheckedContinuation<Outgoing, Never>? in
                guard !state.isClosed else { return nil }
                if case .message = item {
                } else {
                    state.isClosed = true
                    state.end = item
                }
                if let reader = state.reader.take() { return reader }
                state.outgoing.append(item)
                return nil
            }
            reader?.resume(returning: item)
            if case .message = item {} else { endWaits() }
        }

        /// The next item for the client; after the connection is closed, its end again.
        func nextOutgoing() async -> Outgoing {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Outgoing? in
                    if !state.outgoing.isEmpty { return state.outgoing.removeFirst() }
                    if state.isClosed { return state.end ?? .drop }
                    state.reader = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }

        /// Records a message of the client; `false` when the connection is closed.
        func receive(_ message: WebSocket.Message) -> Bool {
            let waiter = state.withLock { state -> CheckedContinuation<WebSocket.Message?, Never>?? in
                guard !state.isClosed else { return .none }
                state.received.append(message)
                guard let waiter = state.receivedWaiter.take() else { return .some(nil) }
                state.receivedRead += 1
                return .some(waiter)
            }
            guard case .some(let continuation) = waiter else { return false }
            continuation?.resume(returning: message)
            return true
        }

        /// Waits for the pong of a ping: `true` when it came, `false` when the connection closed first.
        func ping() async -> Bool {
            await withCheckedContinuation { continuation in
                let answer = state.withLock { state -> Bool? in
                    state.pings += 1
                    if state.isClosed { return false }
                    if state.answersPings { return true }
                    state.pingWaiters.append(continuation)
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        }

        /// The client closes: the server answers with the same code and reason, as RFC 6455 asks.
        func clientClosed(_ closure: WebSocket.Closure) {
            state.withLock { state in
                if state.clientClosure == nil, !state.isClosed { state.clientClosure = closure }
            }
            deliver(.close(closure))
        }

        /// The client fails the connection: its close frame is recorded, and the connection ends without
        /// the server's answer, as a dropped one does.
        func clientAborted(_ closure: WebSocket.Closure) {
            state.withLock { state in
                if state.clientClosure == nil, !state.isClosed { state.clientClosure = closure }
            }
            deliver(.drop)
        }

        /// Ends whatever waits on the connection once it is closed.
        private func endWaits() {
            let (pings, receivedWaiter) = state.withLock { state in
                defer { state.pingWaiters = [] }
                return (state.pingWaiters, state.receivedWaiter.take())
            }
            pings.forEach { $0.resume(returning: false) }
            receivedWaiter?.resume(returning: nil)
        }
    }
}

extension StubTransport.WebSocketPeer {
    /// How a ``StubTransport`` answers a WebSocket opening handshake.
    public enum Reply: Sendable {
        /// Switches protocols: the connection's server side is `peer`.
        case accept(StubTransport.WebSocketPeer)
        /// Refuses with an HTTP response, such as `.status(401)`.
        case refuse(CannedResponse)
    }
}
