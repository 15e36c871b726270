// UsingMiddleware.md, sample 7.
import CoreAPI

func makeSandboxSession() -> ApiSession {
    let mock = MockMiddleware()
    mock.on(.get, "/users/*", reply: .status(404))
    mock.on(GetUser.self, reply: .json(#"{"id": 42, "name": "Ada"}"#).delayed(by: .milliseconds(300)))
    return ApiSession(hostProvider: DictionaryHostProvider(["api": "https://sandbox.example"]), middlewares: [mock])
}
