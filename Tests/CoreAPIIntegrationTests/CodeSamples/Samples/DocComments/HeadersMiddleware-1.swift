// HeadersMiddleware.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(hosts: any HostProvider, tokenStore: TokenStore) -> ApiSession {
    let session = ApiSession(
        hostProvider: hosts,
        middlewares: [
            HeadersMiddleware.defaults,
            HeadersMiddleware(["X-Client": "ios"]),
            HeadersMiddleware.bearer { try await tokenStore.accessToken() },
        ]
    )
    return session
}
