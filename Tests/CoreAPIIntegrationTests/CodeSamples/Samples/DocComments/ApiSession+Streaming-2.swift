// ApiSession+Streaming.swift, sample 2: statements, in the body of a function.
import CoreAPI

private func sample(session: ApiSession) async throws {
    for try await event in session.events(WatchOrders(), reconnection: ServerSentEvents.Reconnection()) {
        print(event.event, event.data)
    }
}
