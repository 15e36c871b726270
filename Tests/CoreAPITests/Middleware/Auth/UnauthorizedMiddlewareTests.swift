import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Account: ApiMethod {
    typealias Response = Data
    var acceptableStatusCodes: CallOptions.AcceptableStatusCodes = .successful
    var options: CallOptions { CallOptions(acceptableStatusCodes: acceptableStatusCodes) }
    var hostProviderKey: String { "api" }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/account")
    }

    func encode(to encoder: any Encoder) throws {}
}

/// Holds the first attempt of each request until `count` requests have arrived.
private final class Gate: Middleware {
    private let count: Int
    private let state = LockedValue<(arrived: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    init(count: Int) {
        self.count = count
    }

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        if context.attempt == 1 {
            await withCheckedContinuation { continuation in
                let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.arrived += 1
                    state.waiting.append(continuation)
                    guard state.arrived >= count else { return [] }
                    defer { state.waiting.removeAll() }
                    return state.waiting
                }
                for waiter in released {
                    waiter.resume()
                }
            }
        }
        return try await next(request)
    }
}

/// Records every call of the handler.
private final class Calls: Sendable {
    let failures = LockedValue<[ApiError.StatusFailure]>([])
    let methods = LockedValue<[String]>([])

    func handle(_ failure: ApiError.StatusFailure, _ context: MiddlewareContext) async {
        failures.withLock { $0.append(failure) }
        methods.withLock { $0.append(context.methodName) }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct UnauthorizedMiddlewareTests {
    let server = StubTransport()

    private func session(_ middlewares: [any Middleware]) -> ApiSession {
        server.makeSession(hosts: ["api": "https://api.test"], middlewares: middlewares)
    }

    @Test func calledOnceWithTheResponseWhichPassesOnUnchanged() async throws {
        server.on(.get, "/account", reply: .json(#"{"error":"expired"}"#, statusCode: 401, headers: ["X-Trace": "t1"]))
        let calls = Calls()
        let error = await #expect(throws: ApiError.self) {
            try await session([UnauthorizedMiddleware(handler: calls.handle)]).perform(Account())
        }
        let expected = ApiError.StatusFailure(
            statusCode: 401,
            headers: ["Content-Type": "application/json", "X-Trace": "t1"],
            body: Data(#"{"error":"expired"}"#.utf8),
            url: URL(string: "https://api.test/account")
        )
        #expect(error == .unauthorized(expected))
        #expect(calls.failures.current == [expected])
        #expect(calls.methods.current == ["Account"])
        #expect(server.requests.count == 1)
    }

    @Test(arguments: [200, 403, 500])
    func notCalledForOtherStatuses(status: Int) async throws {
        server.on(.get, "/account", reply: .status(status))
        let calls = Calls()
        _ = try? await session([UnauthorizedMiddleware(handler: calls.handle)]).perform(Account())
        #expect(calls.failures.current.isEmpty)
        #expect(server.requests.count == 1)
    }

    @Test func calledEvenWhenTheMethodAccepts401AndTheCallSucceeds() async throws {
        server.on(.get, "/account", reply: .text("nope", statusCode: 401))
        let calls = Calls()
        let data = try await session([UnauthorizedMiddleware(handler: calls.handle)])
            .perform(Account(acceptableStatusCodes: [200, 401]))
        #expect(data == Data("nope".utf8))
        #expect(calls.failures.current.map(\.statusCode) == [401])
    }

    @Test func customPredicate() async throws {
        server.on(.get, "/account", reply: .status(419))
        let calls = Calls()
        let handler = UnauthorizedMiddleware(
            isUnauthorized: { response, _ in response.statusCode == 419 },
            handler: calls.handle
        )
        await #expect(throws: ApiError.self) { try await session([handler]).perform(Account()) }
        #expect(calls.failures.current.map(\.statusCode) == [419])
    }

    @Test func notCalledWhenARefreshRecovers() async throws {
        server.on(.get, "/account") { request in
            request.headers["Authorization"] == "Bearer new" ? .text("ok") : .status(401)
        }
        let calls = Calls()
        let auth = TokenRefreshMiddleware(token: "old") { _ in "new" }
        let data = try await session([UnauthorizedMiddleware(handler: calls.handle), auth]).perform(Account())
        #expect(data == Data("ok".utf8))
        #expect(calls.failures.current.isEmpty)
        #expect(server.requests.count == 2)
    }

    @Test func calledOncePerFinalRejectionAfterRefresh() async throws {
        server.on(.get, "/account", reply: CannedResponse.status(401).delayed(by: .seconds(0.05)))
        let calls = Calls()
        let refreshes = LockedValue(0)
        let auth = TokenRefreshMiddleware(token: "old", refreshLimit: nil) { _ in
            refreshes.withLock { $0 += 1 }
            try await Task.sleep(nanoseconds: 100_000_000)
            return "new"
        }
        let session = session([UnauthorizedMiddleware(handler: calls.handle), auth, Gate(count: 10)])
        let failures = await withTaskGroup(of: ApiError?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do {
                        _ = try await session.perform(Account())
                        return nil
                    } catch {
                        return error as? ApiError
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(failures.count == 10)
        #expect(failures.allSatisfy { $0?.category == .unauthorized })
        #expect(calls.failures.current.count == 10)
        #expect(refreshes.current == 1)
        #expect(server.requests.count == 20)
    }

    @Test func failedRefreshCallsItOnlyForTheRefreshCallsOwnRejection() async throws {
        server.on(.get, "/account", reply: .status(401))
        server.on(.post, "/token", reply: .text("denied", statusCode: 401))
        let calls = Calls()
        let holder = LockedValue<ApiSession?>(nil)
        let auth = TokenRefreshMiddleware(token: "old") { _ in
            guard let session = holder.current else { throw ApiError.cancelled }
            return String(decoding: try await session.perform(RefreshToken()), as: UTF8.self)
        }
        let session = session([UnauthorizedMiddleware(handler: calls.handle), auth])
        holder.withLock { $0 = session }
        let error = await #expect(throws: ApiError.self) { try await session.perform(Account()) }
        let refreshRejection = ApiError.StatusFailure(
            statusCode: 401,
            headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Data("denied".utf8),
            url: URL(string: "https://api.test/token")
        )
        // The refresh's error, unchanged; the handler saw only the refresh call's own response.
        #expect(error == .unauthorized(refreshRejection))
        #expect(calls.methods.current == ["RefreshToken"])
        #expect(calls.failures.current == [refreshRejection])
        #expect(server.requests.map(\.url.path) == ["/account", "/token"])
    }

    @Test func errorsOtherThanUnauthorizedPassWithoutACall() async throws {
        server.on(.get, "/account", reply: .failure(.transport(.init(kind: .offline))))
        let calls = Calls()
        await #expect(throws: ApiError.transport(.init(kind: .offline, code: -1009))) {
            try await session([UnauthorizedMiddleware(handler: calls.handle)]).perform(Account())
        }
        #expect(calls.failures.current.isEmpty)
    }
}

private struct RefreshToken: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/token")
    }

    func encode(to encoder: any Encoder) throws {}
}
