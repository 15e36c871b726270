// CachingResponses.md, sample 2.
import CoreAPI
import Foundation

func makeSession(
    hosts: any HostProvider,
    cachesFolder: URL,
    user: @escaping @Sendable () -> String?
) throws -> ApiSession {
    let store = try HTTPCacheMiddleware.FileStore(directory: cachesFolder, byteLimit: 20 << 20)
    let cache = HTTPCacheMiddleware(store: store, classify: { _ in user() }, identify: { _ in user() })
    return ApiSession(hostProvider: hosts, middlewares: [cache])
}

func signOut(_ userID: String, store: HTTPCacheMiddleware.FileStore) async {
    await store.removeResponses(classifiedAs: userID)
}
