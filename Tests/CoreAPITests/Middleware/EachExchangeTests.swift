import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// Wraps each exchange of the calls it sees: logs `name:<path>:<status>` and sets `X-Hop` to its name.
struct HopWatcher: Middleware {
    let name: String
    let log: EventLog

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let name = name
        let log = log
        return try await context.withEachExchange(
            { request, send in
                var request = request
                request.headers.add(name, for: "X-Hop")
                let response = try await send(request)
                log.append("\(name):\(request.url.path):\(response.statusCode)")
                return response
            },
            perform: { try await next(request) }
        )
    }
}

@Suite struct EachExchangeTests {
    @Test func everyAttemptAndRedirectHopPassesTheWrappersInTheChainsOrder() async throws {
        let server = StubTransport()
        let attempts = LockedStrings()
        server.on(.get, "/ping") { _ in
            attempts.append("x")
            return attempts.values.count == 1
                ? .status(503)
                : .status(302, headers: ["Location": "/pong"])
        }
        server.on(.get, "/pong", reply: .text("pong"))
        let log = EventLog()
        let session = server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [
                HopWatcher(name: "outer", log: log),
                RetryMiddleware(policy: RetryPolicy(maximumAttempts: 2, backoff: .constant(.zero))),
                HopWatcher(name: "inner", log: log),
            ]
        )
        let body = try await session.perform(Ping())
        #expect(String(decoding: body, as: UTF8.self) == "pong")
        // The inner wrapper is added once per attempt and removed after it: no hop sees it twice.
        #expect(
            log.events == [
                "inner:/ping:503", "outer:/ping:503",
                "inner:/ping:302", "outer:/ping:302",
                "inner:/pong:200", "outer:/pong:200",
            ]
        )
        #expect(
            server.requests.map { $0.headers.values(for: "X-Hop") } == Array(repeating: ["outer", "inner"], count: 3)
        )
    }

    @Test func aCallWithoutWrappersSendsItsRequestsUnchanged() async throws {
        let server = StubTransport()
        server.on(.get, "/ping", reply: .text("pong"))
        let log = EventLog()
        let session = server.makeSession(hosts: ["api": "https://api.test"])
        _ = try await session.perform(Ping(middlewares: [HopWatcher(name: "method", log: log)]))
        _ = try await session.perform(Ping())
        #expect(log.events == ["method:/ping:200"])
        #expect(server.requests.map { $0.headers.values(for: "X-Hop") } == [["method"], []])
    }
}
