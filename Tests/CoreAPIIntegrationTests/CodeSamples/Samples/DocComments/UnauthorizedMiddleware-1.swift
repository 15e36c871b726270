// UnauthorizedMiddleware.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(hosts: any HostProvider, account: Account, token: String?) -> ApiSession {
    let session = ApiSession(
        hostProvider: hosts,
        middlewares: [
            UnauthorizedMiddleware { failure, context in await account.logOut() },
            TokenRefreshMiddleware(token: token) { rejected in try await account.refreshToken() },
        ]
    )
    return session
}
