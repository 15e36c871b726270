import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerialLoopback {
    /// What a session gets from the `URLSessionConfiguration` it is made with, which configures
    /// URLSession alone: other transports have no such configuration.
    @Suite(.timeLimit(.minutes(1)))
    struct URLSessionConfigurationTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        /// Cookies are off in ``ApiSession/makeDefaultConfiguration()``, and on once the configuration
        /// turns them on (`LoopbackTests.defaultSessionNeitherKeepsNorSendsCookies` checks the default over
        /// every transport).
        @Test func cookiesAreOptIn() async throws {
            let jar = "/echo/cookie-jar/\(UUID().uuidString)"
            let configuration = ApiSession.makeDefaultConfiguration()
            configuration.httpCookieStorage = HTTPCookieStorage.shared
            configuration.httpCookieAcceptPolicy = .always
            configuration.httpShouldSetCookies = true
            let session = ApiSession(hostProvider: server.hosts, configuration: configuration)
            defer {
                for cookie in HTTPCookieStorage.shared.cookies ?? [] where cookie.path == jar {
                    HTTPCookieStorage.shared.deleteCookie(cookie)
                }
            }
            _ = try await session.perform(SetCookie(name: "jar", value: "kept", cookiePath: jar))
            let echo = try await session.perform(EchoAt(path: jar))
            #expect(echo.headers["cookie"] == "jar=kept")
        }
    }
}
