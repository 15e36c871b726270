// TokenRefreshMiddleware.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(
    hosts: any HostProvider,
    storedAccessToken: String?,
    refreshToken: String,
    authService: SignInService
) -> ApiSession {
    let auth = TokenRefreshMiddleware(token: storedAccessToken) { rejected in
        let tokens = try await authService.refresh(using: refreshToken)
        return tokens.accessToken
    }
    let session = ApiSession(
        hostProvider: hosts,
        middlewares: [UnauthorizedMiddleware { _, _ in await logOut() }, auth]
    )
    return session
}
