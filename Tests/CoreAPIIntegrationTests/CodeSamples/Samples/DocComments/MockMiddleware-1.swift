// MockMiddleware.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(hosts: any HostProvider) -> ApiSession {
    let mock = MockMiddleware()
    mock.on(GetUser.self, reply: .json(#"{"id": 42, "name": "Ada"}"#))
    mock.on(.get, "/users/*", reply: .status(404))
    let session = ApiSession(hostProvider: hosts, middlewares: [mock])
    return session
}
