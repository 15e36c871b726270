public import CoreAPI
import CoreAPITesting

/// A session whose `StubTransport` answers every `GET /user` with ``TinyUser/body`` in process.
///
/// The host provider names `baseURL` like the loopback clients', so the request CoreAPI builds is the
/// same; nothing is sent to it. `middlewares` (none by default) run as a session's middlewares do.
public func makeStubSession(baseURL: String, middlewares: [any Middleware] = []) -> ApiSession {
    let transport = StubTransport()
    transport.on(.get, "/user", reply: .json(TinyUser.body))
    return transport.makeSession(hostProvider: benchHosts(baseURL), middlewares: middlewares)
}
