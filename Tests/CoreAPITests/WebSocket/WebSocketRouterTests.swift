import CoreAPI
import CoreAPITesting
import Foundation
import Synchronization
import Testing

/// ``WebSocket/Router`` over the stub: messages reach the handler of their key, decoded; the rest go
/// to the unrouted handler; the run ends with the closure.
@Suite(.timeLimit(.minutes(1)))
struct WebSocketRouterTests {
    struct Chat: Decodable, Equatable, Sendable {
        var text: String
        var fromUser: String
    }

    struct Presence: Decodable, Equatable, Sendable {
        var online: [String]
    }

    @Test func routesByKeyToTypedHandlers() async throws {
        let transport = StubTransport()
        let peer = StubTransport.WebSocketPeer()
        transport.onWebSocket("*") { _ in .accept(peer) }
        let session = transport.makeSession(hosts: ["chat": "http://chat.test"])
        let socket = try await session.webSocket(WebSocketTests.ChatSocket())

        let chats = Mutex<[Chat]>([])
        let presences = Mutex<[Presence]>([])
        let unrouted = Mutex<[WebSocket.Message]>([])
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var router = WebSocket.Router(key: "event", payload: "data", decoder: decoder)
        router.on("chat", Chat.self) { chat in chats.withLock { $0.append(chat) } }
        router.on("presence", Presence.self) { presence in presences.withLock { $0.append(presence) } }
        router.onUnrouted { message in unrouted.withLock { $0.append(message) } }

        peer.send(.text(#"{"event":"chat","data":{"text":"hi","from_user":"ada"}}"#))
        peer.send(.text(#"{"event":"presence","data":{"online":["ada","bob"]}}"#))
        peer.send(.text(#"{"event":"typing","data":{}}"#))
        peer.send(.binary(Data([1])))
        peer.send(.text("not json"))
        peer.send(.text(#"{"event":"chat","data":{"text":"again","from_user":"bob"}}"#))
        peer.close(.normalClosure, reason: "end")
        let closure = try await router.run(socket)

        #expect(closure == WebSocket.Closure(code: .normalClosure, reason: "end"))
        #expect(chats.withLock { $0 } == [Chat(text: "hi", fromUser: "ada"), Chat(text: "again", fromUser: "bob")])
        #expect(presences.withLock { $0 } == [Presence(online: ["ada", "bob"])])
        #expect(
            unrouted.withLock { $0 } == [
                .text(#"{"event":"typing","data":{}}"#), .binary(Data([1])), .text("not json"),
            ]
        )
    }

    @Test func anUndecodablePayloadEndsTheRunUnlessSkipped() async throws {
        var router = WebSocket.Router()
        router.on("chat", Chat.self) { _ in }
        let bad = WebSocket.Message.text(#"{"type":"chat","data":{"text":1}}"#)
        await #expect {
            try await router.route(bad)
        } throws: { error in
            guard case .mapping(let failure) = error as? ApiError else { return false }
            return failure.typeName.hasSuffix("Chat")
        }
        router.skipsUndecodable = true
        #expect(try await router.route(bad) == false)
    }
}
