// WebSockets.md, sample 2.
import CoreAPI
import Foundation

struct ChatLine: Decodable, Sendable {
    var text: String
    var author: String
}

struct PresenceChange: Decodable, Sendable {
    var online: [String]
}

func route(_ socket: WebSocket) async throws {
    var router = WebSocket.Router(key: "type", payload: "data")
    router.on("line", ChatLine.self) { line in print("\(line.author): \(line.text)") }
    router.on("presence", PresenceChange.self) { change in print("online: \(change.online)") }
    router.onUnrouted { message in print("unrouted: \(message.size) bytes") }
    let closure = try await router.run(socket)
    print("closed with \(closure?.code.rawValue ?? 0)")
}
