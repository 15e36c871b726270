// WebSockets.md, sample 1.
import CoreAPI
import Foundation

struct RoomSocket: WebSocket.Method {
    @Excluded var room: String
    var since: Int?
    var hostProviderKey: String { "chat" }
    var path: String { "/rooms/\(room)/socket" }
    var webSocketOptions: WebSocket.Options {
        WebSocket.Options(
            maximumMessageSize: 1 << 20,
            pingInterval: .seconds(20),
            reconnection: WebSocket.Reconnection()
        )
    }
}

struct PostedLine: Codable, Sendable {
    var text: String
}

func follow(_ room: String, with session: ApiSession) async throws {
    let socket = try await session.webSocket(RoomSocket(room: room))
    try await socket.send(json: PostedLine(text: "hello"))
    for try await event in socket.events {
        switch event {
        case .message(let message):
            print(try socket.decode(PostedLine.self, from: message).text)
        case .reconnected(let attempt):
            print("reconnected after \(attempt) attempt(s); messages sent meanwhile were missed")
        case .closed(let closure):
            print("closed: \(closure.code) \(closure.reason)")
        }
    }
}
