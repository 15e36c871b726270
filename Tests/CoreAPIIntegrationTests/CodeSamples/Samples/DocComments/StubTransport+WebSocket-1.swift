// StubTransport+WebSocket.swift, sample 1: statements, in the body of a function.
import CoreAPI
import CoreAPITesting

private func sample(transport: StubTransport) -> StubTransport.WebSocketPeer {
    let peer = StubTransport.WebSocketPeer()
    transport.onWebSocket("/chat") { _ in .accept(peer) }
    return peer
}
