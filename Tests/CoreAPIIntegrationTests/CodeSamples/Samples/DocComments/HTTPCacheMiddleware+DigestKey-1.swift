// HTTPCacheMiddleware+DigestKey.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(keychain: Keychain) throws -> HTTPCacheMiddleware.DigestKey? {
    let key = HTTPCacheMiddleware.DigestKey(try keychain.cacheKey())  // 32 random bytes kept by the app
    return key
}
