// DownloadsAndStreams.md, sample 5.
import CoreAPI

func followOrders(with session: ApiSession) async throws {
    for try await event in session.events(WatchOrders(), reconnection: EventReconnection(delay: .seconds(2))) {
        print(event.event, event.id ?? "-", event.data)
    }
}
