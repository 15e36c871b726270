// DownloadsAndStreams.md, sample 5.
import CoreAPI

func followOrders(with session: ApiSession) async throws {
    let reconnection = ServerSentEvents.Reconnection(delay: .seconds(2))
    for try await event in session.events(WatchOrders(), reconnection: reconnection) {
        print(event.event, event.id ?? "-", event.data)
    }
}
