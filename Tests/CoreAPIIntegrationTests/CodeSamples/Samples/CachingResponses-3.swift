// CachingResponses.md, sample 3.
import CoreAPI
import Foundation

func makeServerSession(hosts: any HostProvider) -> ApiSession {
    let cache = HTTPCacheMiddleware(store: HTTPCacheMiddleware.MemoryStore(byteLimit: 64 << 20), mode: .shared)
    return ApiSession(hostProvider: hosts, middlewares: [cache])
}
