// ApiSession+CacheThenNetwork.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(session: ApiSession, cache: HTTPCacheMiddleware) async throws {
    for try await event in session.cachedThenFresh(ListOrders(), cache: cache) {
        switch event {
        case .cached(let orders, let age): show(orders, age: age)
        case .fresh(let orders): show(orders, age: .zero)
        case .failed(let error): showOffline(error)
        }
    }
}
