// CachingResponses.md, sample 5.
import CoreAPI
import Foundation

func showOrders(with session: ApiSession, cache: HTTPCacheMiddleware) async throws {
    for try await event in session.cachedThenFresh(ListStoredOrders(), cache: cache) {
        switch event {
        case .cached(let orders, let age): print("stored, \(age) old:", orders.count, "bytes")
        case .fresh(let orders): print("fresh:", orders.count, "bytes")
        case .failed(let error): print("offline, showing stored data:", error)
        }
    }
}
