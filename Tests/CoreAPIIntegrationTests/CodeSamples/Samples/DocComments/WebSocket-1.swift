// WebSocket.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(session: ApiSession) async throws {
    let socket = try await session.webSocket(ChatSocket(room: "general"))
    try await socket.send(.json(Outgoing(text: "hello")))
    for try await event in socket.events {
        if case .message(let message) = event {
            print(try message.decode(Incoming.self).text)
        }
    }
}
