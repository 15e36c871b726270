import CoreAPI
import CoreAPITesting
import Foundation
import Synchronization
import Testing

/// ``WebSocket`` over the in-memory engine of ``StubTransport``: messages both ways and in order, the
/// opening handshake through the session's headers and middlewares, the close code and reason, the
/// size limit, the ping timeout, cancellation and reconnection.
@Suite(.timeLimit(.minutes(1)))
struct WebSocketTests {
    struct ChatSocket: WebSocket.Method {
        @Excluded var room = "general"
        var after: Int? = nil
        var accessToken: String? = nil
        var options = WebSocket.Options(pingInterval: nil)
        var hostProviderKey: String { "chat" }
        var path: String { "/rooms/\(room)/socket" }
        var webSocketOptions: WebSocket.Options { options }
        var headers: Headers { ["X-Room": room] }

        enum CodingKeys: String, CodingKey {
            case after
            case accessToken = "access_token"
        }
    }

    struct Note: Codable, Equatable {
        var text: String
        var sentAt: Int
    }

    let transport = StubTransport()

    func session(_ middlewares: [any Middleware] = []) -> ApiSession {
        transport.makeSession(
            hostProvider: DictionaryHostProvider(["chat": "https://chat.test/v1"]),
            headers: ["X-Client": "tests"],
            middlewares: middlewares
        )
    }

    /// Accepts every opening handshake with `peer`.
    func accepting(_ peer: StubTransport.WebSocketPeer) -> StubTransport.WebSocketPeer {
        transport.onWebSocket("*") { _ in .accept(peer) }
        return peer
    }

    @Test func textBinaryAndJSONGoBothWays() async throws {
        let peer = accepting(StubTransport.WebSocketPeer())
        let socket = try await session().webSocket(ChatSocket())
        try await socket.send(.text("hello"))
        try await socket.send(.binary(Data([0, 1, 2, 255])))
        try await socket.send(json: Note(text: "hi", sentAt: 7))
        #expect(await peer.nextReceived() == .text("hello"))
        #expect(await peer.nextReceived() == .binary(Data([0, 1, 2, 255])))
        let json = try #require(await peer.nextReceived())
        #expect(try json.decode(Note.self) == Note(text: "hi", sentAt: 7))

        peer.send(.text(#"{"text":"back","sentAt":8}"#))
        peer.send(.binary(Data([9])))
        var events = socket.events.makeAsyncIterator()
        guard case .message(let first) = try await events.next() else {
            Issue.record("no message")
            return
        }
        #expect(try first.decode(Note.self) == Note(text: "back", sentAt: 8))
        #expect(try await events.next() == .message(.binary(Data([9]))))
    }

    /// A service sets its JSON strategies once, on the method: `send(json:)` and `decode(_:from:)` use them.
    @Test func theMethodsCodersShapeJSONMessages() async throws {
        struct SnakeSocket: WebSocket.Method {
            var hostProviderKey: String { "chat" }
            var path: String { "/snake" }
            var webSocketOptions: WebSocket.Options { WebSocket.Options(pingInterval: nil) }
            var messageEncoder: JSONEncoder {
                let encoder = JSONEncoder()
                encoder.keyEncodingStrategy = .convertToSnakeCase
                encoder.outputFormatting = .sortedKeys
                return encoder
            }
            var messageDecoder: JSONDecoder {
                let decoder = JSONDecoder()
                decoder.keyDecodingStrategy = .convertFromSnakeCase
                return decoder
            }
        }
        let peer = accepting(StubTransport.WebSocketPeer())
        let socket = try await session().webSocket(SnakeSocket())
        try await socket.send(json: Note(text: "hi", sentAt: 7))
        #expect(await peer.nextReceived() == .text(#"{"sent_at":7,"text":"hi"}"#))
        #expect(
            try socket.decode(Note.self, from: .text(#"{"text":"back","sent_at":8}"#)) == Note(text: "back", sentAt: 8)
        )
    }

    @Test func aThousandMessagesArriveInOrderBothWays() async throws {
        let peer = accepting(StubTransport.WebSocketPeer())
        let socket = try await session().webSocket(ChatSocket())
        for index in 0..<1000 {
            peer.send(.text("server \(index)"))
            try await socket.send(.text("client \(index)"))
        }
        var received: [WebSocket.Event] = []
        for try await event in socket.events {
            received.append(event)
            if received.count == 1000 { break }
        }
        #expect(received == (0..<1000).map { .message(.text("server \($0)")) })
        #expect(peer.received == (0..<1000).map { .text("client \($0)") })
    }

    /// The handshake is the method's request with `wss` for `https`: query parameters, the session's
    /// and the method's header fields, and what the middlewares add when it connects.
    @Test func theOpeningHandshakeCarriesHeadersMiddlewaresAndParameters() async throws {
        _ = accepting(StubTransport.WebSocketPeer())
        let token = LockedToken("first")
        let session = session([HeadersMiddleware.bearer { token.value }])
        _ = try await session.webSocket(ChatSocket(room: "ops", after: 41))
        token.value = "second"
        _ = try await session.webSocket(ChatSocket(room: "ops"))
        let requests = transport.webSocketRequests
        #expect(
            requests.map(\.url.absoluteString) == [
                "wss://chat.test/v1/rooms/ops/socket?after=41", "wss://chat.test/v1/rooms/ops/socket",
            ]
        )
        #expect(requests.map { $0.headers["Authorization"] } == ["Bearer first", "Bearer second"])
        #expect(requests.allSatisfy { $0.headers["X-Client"] == "tests" && $0.headers["X-Room"] == "ops" })
        #expect(requests.allSatisfy { $0.method == .get })
    }

    /// The handshake goes through logging like any request: its token and secret query parameter are
    /// redacted in every record.
    @Test func theHandshakeIsLoggedWithoutSecrets() async throws {
        _ = accepting(StubTransport.WebSocketPeer())
        let records = Mutex<[String]>([])
        let logging = LoggingMiddleware(level: .debug) { record in records.withLock { $0.append(record.message) } }
        let session = session([HeadersMiddleware.bearer { "s3cret-token" }, logging])
        _ = try await session.webSocket(ChatSocket(room: "ops", accessToken: "q-s3cret"))
        let lines = records.withLock { $0 }
        #expect(lines.count >= 2)
        #expect(lines.contains { $0.contains("wss://chat.test/v1/rooms/ops/socket") })
        #expect(lines.allSatisfy { !$0.contains("s3cret") })
        #expect(transport.webSocketRequests.first?.headers["Authorization"] == "Bearer s3cret-token")
    }

    @Test func aRefusedHandshakeIsAStatusErrorAndNoConnection() async throws {
        transport.onWebSocket("*") { _ in .refuse(.status(401)) }
        await #expect(throws: ApiError.self) {
            _ = try await session().webSocket(ChatSocket())
        }
        do {
            _ = try await session().webSocket(ChatSocket())
        } catch let error as ApiError {
            guard case .unauthorized(let failure) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(failure.statusCode == 401)
        }
        transport.onWebSocket("*") { _ in .refuse(.status(200)) }
        await #expect(throws: WebSocket.Failure.handshakeFailed(reason: "status 200 instead of 101")) {
            _ = try await session().webSocket(ChatSocket())
        }
    }

    @Test func theServersCloseCodeAndReasonReachTheReader() async throws {
        let peer = accepting(StubTransport.WebSocketPeer())
        let socket = try await session().webSocket(ChatSocket())
        peer.send(.text("last words"))
        peer.close(WebSocket.CloseCode(rawValue: 4001), reason: "room closed")
        var events: [WebSocket.Event] = []
        for try await event in socket.events {
            events.append(event)
        }
        let closure = WebSocket.Closure(code: WebSocket.CloseCode(rawValue: 4001), reason: "room closed")
        #expect(events == [.message(.text("last words")), .closed(closure)])
        #expect(socket.closure == closure)
        await #expect(throws: WebSocket.Failure.closed(closure)) {
            try await socket.send(.text("too late"))
        }
    }

    @Test func theClientClosesWithACodeAndAReason() async throws {
        let peer = accepting(StubTransport.WebSocketPeer())
        let socket = try await session().webSocket(ChatSocket())
        await socket.close(.normalClosure, reason: "done")
        let closure = WebSocket.Closure(code: .normalClosure, reason: "done")
        #expect(peer.clientClosure == closure)
        var events: [WebSocket.Event] = []
        for try await event in socket.events {
            events.append(event)
        }
        #expect(events == [.closed(closure)])
    }

    /// A message of exactly the limit passes; one byte more closes the connection with 1009. A message
    /// over the limit is not sent at all.
    @Test func messagesAreHeldToTheSizeLimit() async throws {
        let limit = 1 << 20
        let peer = accepting(StubTransport.WebSocketPeer())
        let socket = try await session().webSocket(
            ChatSocket(options: WebSocket.Options(maximumMessageSize: limit, pingInterval: nil))
        )
        await #expect(throws: WebSocket.Failure.messageTooLarge(limit: limit)) {
            try await socket.send(.binary(Data(count: limit + 1)))
        }
        #expect(peer.received.isEmpty)
        try await socket.send(.binary(Data(count: limit)))
        #expect(peer.received.map(\.size) == [limit])

        peer.send(.binary(Data(count: limit)))
        peer.send(.binary(Data(count: limit + 1)))
        var events = socket.events.makeAsyncIterator()
        #expect(try await events.next() == .message(.binary(Data(count: limit))))
        await #expect(throws: WebSocket.Failure.messageTooLarge(limit: limit)) {
            _ = try await events.next()
        }
        #expect(peer.clientClosure?.code == .messageTooBig)
        // The peer answers the client's close frame with the same code: the closure (RFC 6455 §7.1.5).
        #expect(socket.closure == WebSocket.Closure(code: .messageTooBig))
        #expect(try await events.next() == nil)
    }

    @Test func aServerThatStopsAnsweringPingsTimesOut() async throws {
        let peer = accepting(StubTransport.WebSocketPeer(answersPings: false))
        let options = WebSocket.Options(pingInterval: .milliseconds(20), pingTimeout: .milliseconds(100))
        let socket = try await session().webSocket(ChatSocket(options: options))
        await #expect(throws: WebSocket.Failure.pingTimeout) {
            for try await _ in socket.events {}
        }
        #expect(peer.pings >= 1)
        #expect(peer.clientClosure == WebSocket.Closure(code: .goingAway, reason: "ping timeout"))
    }

    @Test func answeredPingsKeepTheConnectionOpen() async throws {
        let peer = accepting(StubTransport.WebSocketPeer())
        let options = WebSocket.Options(pingInterval: .milliseconds(10), pingTimeout: .milliseconds(500))
        let socket = try await session().webSocket(ChatSocket(options: options))
        try await waitUntil(timeout: .seconds(10)) { peer.pings >= 5 }
        #expect(!peer.isClosed)
        await socket.close()
    }

    @Test func cancellingTheReaderClosesTheConnection() async throws {
        let peer = accepting(StubTransport.WebSocketPeer())
        let socket = try await session().webSocket(ChatSocket())
        let reader = Task {
            for try await _ in socket.events {}
        }
        try await Task.sleep(for: .milliseconds(20))
        reader.cancel()
        await #expect(throws: ApiError.cancelled) {
            try await reader.value
        }
        #expect(peer.clientClosure?.code == .goingAway)
    }

    @Test func withoutReconnectionALostConnectionFailsTheReader() async throws {
        let peer = accepting(StubTransport.WebSocketPeer())
        let socket = try await session().webSocket(ChatSocket())
        peer.drop()
        await #expect(throws: WebSocket.Failure.connectionLost) {
            for try await _ in socket.events {}
        }
        #expect(socket.closure?.code == .abnormalClosure)
    }

    #if canImport(FoundationNetworking)
        /// On Linux URLSession cannot open WebSockets: the session says so at once and sends nothing.
        @Test func urlSessionOnLinuxRefusesAtOnce() async throws {
            let session = ApiSession(hostProvider: DictionaryHostProvider(["chat": "http://127.0.0.1:9"]))
            defer { session.invalidate() }
            await #expect {
                _ = try await session.webSocket(ChatSocket())
            } throws: { error in
                guard case .unavailable(let reason) = error as? WebSocket.Failure else { return false }
                return reason.contains("Linux") && reason.contains("trait AsyncHTTPClient")
            }
        }
    #endif
}
