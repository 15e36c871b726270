// WebSocket+Router.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(socket: WebSocket, chat: ChatLog, roster: Roster) async throws -> WebSocket.Closure? {
    var router = WebSocket.Router(key: "type", payload: "data")
    router.on("chat", ChatLine.self) { line in await chat.append(line) }
    router.on("presence", Presence.self) { presence in await roster.update(presence) }
    let closure = try await router.run(socket)
    return closure
}
