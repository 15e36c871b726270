// WebSockets.md, sample 4.
import CoreAPI
import CoreAPITesting
import Foundation
import Testing

@Test func echoesALine() async throws {
    let transport = StubTransport()
    let peer = StubTransport.WebSocketPeer()
    transport.onWebSocket("/rooms/*") { _ in .accept(peer) }
    let session = transport.makeSession(hosts: ["chat": "https://chat.test"])

    let socket = try await session.webSocket(RoomSocket(room: "general"))
    try await socket.send(.text("hi"))
    peer.send(.text("welcome"))
    peer.close(WebSocket.CloseCode(rawValue: 4001), reason: "room closed")

    #expect(await peer.nextReceived() == .text("hi"))
    var events: [WebSocket.Event] = []
    for try await event in socket.events {
        events.append(event)
    }
    #expect(events.first == .message(.text("welcome")))
    #expect(socket.closure?.code.rawValue == 4001)
    #expect(transport.webSocketRequests.first?.url.scheme == "wss")
}
