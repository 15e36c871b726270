import CoreAPI
import Foundation
import Synchronization
import Testing

/// ``WebSocket``'s keep-alive over an engine whose peer has stopped reading: whatever the engine, a
/// ping timeout fails the connection at once (RFC 6455 §7.1.7) instead of waiting out the closing
/// handshake for a close frame a dead peer will never send.
@Suite(.timeLimit(.minutes(1)))
struct WebSocketSilentPeerTests {
    /// An engine's connection to a peer that reads nothing: no ping gets its pong and no close frame its
    /// answer. As an engine does, ``close(_:)`` cuts the connection once the close timeout has passed,
    /// and ``abort(_:)`` cuts it at once; either way the reader then learns the connection was lost.
    final class SilentConnection: WebSocket.Connection {
        private struct State {
            var ended = false
            var waiters: [CheckedContinuation<Void, Never>] = []
            var closed: WebSocket.Closure?
            var aborted: WebSocket.Closure?
            var pings = 0
        }

        private let state = Mutex(State())
        let closeTimeout: Duration

        init(closeTimeout: Duration) {
            self.closeTimeout = closeTimeout
        }

        /// The close frame of ``close(_:)``, once it was called.
        var closed: WebSocket.Closure? { state.withLock { $0.closed } }
        /// The close frame of ``abort(_:)``, once it was called.
        var aborted: WebSocket.Closure? { state.withLock { $0.aborted } }
        /// How many pings were sent.
        var pings: Int { state.withLock { $0.pings } }

        func send(_ message: WebSocket.Message) async throws {
            if state.withLock({ $0.ended }) {
                throw WebSocket.Failure.closed(WebSocket.Closure(code: .abnormalClosure))
            }
        }

        func receive() async throws -> WebSocket.Event {
            await awaitEnd()
            throw WebSocket.Failure.connectionLost
        }

        func ping() async throws {
            state.withLock { $0.pings += 1 }
            await awaitEnd()
            throw WebSocket.Failure.connectionLost
        }

        func close(_ closure: WebSocket.Closure) async {
            let ended = state.withLock { state -> Bool in
                if state.closed == nil, state.aborted == nil { state.closed = closure }
                return state.ended
            }
            guard !ended else { return }
            try? await Task.sleep(for: closeTimeout)
            end()
        }

        func abort(_ closure: WebSocket.Closure) {
            state.withLock { state in
                if state.closed == nil, state.aborted == nil { state.aborted = closure }
            }
            end()
        }

        private func awaitEnd() async {
            await withCheckedContinuation { continuation in
                let ended = state.withLock { state -> Bool in
                    if !state.ended { state.waiters.append(continuation) }
                    return state.ended
                }
                if ended { continuation.resume() }
            }
        }

        private func end() {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.ended = true
                defer { state.waiters = [] }
                return state.waiters
            }
            waiters.forEach { $0.resume() }
        }
    }

    /// A transport whose every opening handshake gives `connection`.
    struct SilentTransport: Transport {
        let connection: SilentConnection

        func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            throw ApiError.cancelled
        }

        func openWebSocket(_ request: ApiRequest, options: WebSocket.Options) async throws -> WebSocket.Upgrade {
            .upgraded(connection)
        }
    }

    struct ChatSocket: WebSocket.Method {
        @Excluded var options: WebSocket.Options
        var hostProviderKey: String { "chat" }
        var path: String { "/socket" }
        var webSocketOptions: WebSocket.Options { options }
    }

    /// The first ping goes out one ``WebSocket/Options/pingInterval`` after the connection opened and
    /// is failed ``WebSocket/Options/pingTimeout`` later; the ``WebSocket/Options/closeTimeout`` is not
    /// waited for, and the closure is 1006 since no close frame came. The close timeout is 30 s here, so
    /// a wait for the close frame stands far from what a loaded machine adds to the 250 ms before it.
    @Test func aMissedPongFailsTheConnectionAtThePingTimeout() async throws {
        let options = WebSocket.Options(
            pingInterval: .milliseconds(50),
            pingTimeout: .milliseconds(200),
            closeTimeout: .seconds(30)
        )
        let pingInterval = try #require(options.pingInterval)
        let connection = SilentConnection(closeTimeout: options.closeTimeout)
        let session = ApiSession(
            hostProvider: DictionaryHostProvider(["chat": "https://chat.test"]),
            transport: SilentTransport(connection: connection)
        )
        let socket = try await session.webSocket(ChatSocket(options: options))
        let start = ContinuousClock.now
        await #expect(throws: WebSocket.Failure.pingTimeout) {
            for try await _ in socket.events {}
        }
        let elapsed = ContinuousClock.now - start
        // What the code controls: it did not wait out the close timeout for a frame from a dead peer (the
        // stand-in cuts itself off only that long after a close). How soon after the ping timeout the
        // caller resumes is the machine's; the loopback test bounds it over a real engine.
        let bound = pingInterval + options.pingTimeout + options.closeTimeout
        #expect(elapsed < bound, "failed \(elapsed) after opening; a wait for a close frame ends after \(bound)")
        #expect(connection.pings == 1)
        // §7.1.7: a close frame goes out before the connection is cut, with the reason.
        #expect(connection.aborted == WebSocket.Closure(code: .goingAway, reason: "ping timeout"))
        #expect(socket.closure == WebSocket.Closure(code: .abnormalClosure))
    }
}
