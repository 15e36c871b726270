// HTTPCacheMiddleware.swift, sample 1: statements, in the body of a function.
import CoreAPI
import Foundation

private func sample(hosts: any HostProvider, cachesFolder: URL) throws -> ApiSession {
    let cache = HTTPCacheMiddleware(store: try HTTPCacheMiddleware.FileStore(directory: cachesFolder))
    let session = ApiSession(hostProvider: hosts, middlewares: [cache])
    return session
}
