// StubTransport+WebSocketPeer.swift, sample 1: statements, in the body of a function.
import CoreAPI
import CoreAPITesting
import Testing

private func sample(transport: StubTransport, session: ApiSession) async throws {
    let peer = StubTransport.WebSocketPeer()
    transport.onWebSocket("/chat") { _ in .accept(peer) }
    let socket = try await session.webSocket(ChatSocket())
    try await socket.send(.text("hello"))
    #expect(await peer.nextReceived() == .text("hello"))
    peer.send(.text("welcome"))
    peer.close(WebSocket.CloseCode(rawValue: 4001), reason: "bye")
}
