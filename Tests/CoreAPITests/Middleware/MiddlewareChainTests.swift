import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A middleware that records its name on the way in and out, and tags the request.
struct Tracer: Middleware {
    let name: String
    let log: EventLog

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        log.append("\(name)>\(context.attempt)")
        var request = request
        request.headers.add(name, for: "X-Trace")
        let response = try await next(request)
        log.append("\(name)<\(response.statusCode)")
        return response
    }
}

/// Sends the request `times` times and returns the last response.
struct Repeater: Middleware {
    let times: Int

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        var response = try await next(request)
        for _ in 1..<times {
            response = try await next(request)
        }
        return response
    }
}

/// Answers without calling `next`.
struct ShortCircuit: Middleware {
    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        try RawResponse(url: request.url, statusCode: 200, data: Data("short".utf8))
    }
}

/// Passes the request on and records which task it ran in; says whether it waits only in `next`.
struct TaskRecorder: Middleware {
    let waitsOnlyInNext: Bool
    let log: EventLog

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        log.append(currentTaskID())
        return try await next(request)
    }
}

/// Tells the task running it apart from every other task alive at the same time.
func currentTaskID() -> String {
    withUnsafeCurrentTask { task in task.map { String($0.hashValue) } ?? "none" }
}

/// Strings recorded from several tasks.
final class EventLog: Sendable {
    private let items = LockedStrings()

    func append(_ item: String) { items.append(item) }
    var events: [String] { items.values }
}

final class LockedStrings: @unchecked Sendable {  // `values` is only touched under `lock`
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ item: String) { lock.withLock { storage.append(item) } }
    var values: [String] { lock.withLock { storage } }
}

struct Ping: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var middlewares: [any Middleware] = []
    var options: CallOptions { CallOptions(middlewares: middlewares) }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/ping")
    }
    func encode(to encoder: any Encoder) throws {}
}

@Suite struct MiddlewareChainTests {
    let server = StubTransport()

    init() {
        server.on(.get, "/ping", reply: .text("pong"))
    }

    @Test func sessionMiddlewaresRunInOrderThenTheMethodsOwn() async throws {
        let log = EventLog()
        let session = server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [Tracer(name: "a", log: log), Tracer(name: "b", log: log)]
        )
        let body = try await session.perform(Ping(middlewares: [Tracer(name: "m", log: log)]))
        #expect(String(decoding: body, as: UTF8.self) == "pong")
        #expect(log.events == ["a>1", "b>1", "m>1", "m<200", "b<200", "a<200"])
        #expect(server.requests.first?.headers.values(for: "X-Trace") == ["a", "b", "m"])
    }

    @Test func aMiddlewareCanAnswerWithoutTheNetwork() async throws {
        let log = EventLog()
        let session = server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [Tracer(name: "a", log: log), ShortCircuit(), Tracer(name: "never", log: log)]
        )
        let body = try await session.perform(Ping())
        #expect(String(decoding: body, as: UTF8.self) == "short")
        #expect(log.events == ["a>1", "a<200"])
        #expect(server.requests.isEmpty)
    }

    @Test func callingNextAgainSendsAgainWithTheNextAttemptNumber() async throws {
        let log = EventLog()
        let session = server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [Tracer(name: "outer", log: log), Repeater(times: 3), Tracer(name: "inner", log: log)]
        )
        _ = try await session.perform(Ping())
        #expect(server.requests.count == 3)
        #expect(
            log.events == [
                "outer>1", "inner>1", "inner<200", "inner>2", "inner<200", "inner>3", "inner<200", "outer<200",
            ]
        )
    }

    @Test func statusValidationRunsAfterTheChain() async throws {
        server.on(.get, "/ping", reply: .status(503))
        let log = EventLog()
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [Tracer(name: "a", log: log)])
        let error = await #expect(throws: ApiError.self) { try await session.perform(Ping()) }
        #expect(error?.statusCode == 503)
        #expect(log.events == ["a>1", "a<503"])
    }

    @Test func transportFailuresReachMiddlewaresAsApiErrors() async throws {
        server.on(.get, "/ping", reply: .failure(.transport(.init(kind: .connectionLost))))
        let seen = EventLog()
        struct Catcher: Middleware {
            let seen: EventLog
            func intercept(
                _ request: ApiRequest,
                context: MiddlewareContext,
                next: @Sendable (ApiRequest) async throws -> RawResponse
            ) async throws -> RawResponse {
                do {
                    return try await next(request)
                } catch let error as ApiError {
                    seen.append("\(error.category)")
                    throw error
                }
            }
        }
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [Catcher(seen: seen)])
        let error = await #expect(throws: ApiError.self) { try await session.perform(Ping()) }
        #expect(error == .transport(.init(kind: .connectionLost, code: URLError.Code.networkConnectionLost.rawValue)))
        #expect(seen.events == ["network"])
    }

    @Test func aMiddlewaresOwnErrorEndsTheCallUnchanged() async throws {
        struct Refused: Error, Equatable {}
        struct Thrower: Middleware {
            func intercept(
                _ request: ApiRequest,
                context: MiddlewareContext,
                next: @Sendable (ApiRequest) async throws -> RawResponse
            ) async throws -> RawResponse {
                throw Refused()
            }
        }
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [Thrower()])
        await #expect(throws: Refused()) { try await session.perform(Ping()) }
        #expect(server.requests.isEmpty)
    }

    @Test func headersAMiddlewareAddsAreValidatedBeforeSending() async throws {
        struct Injector: Middleware {
            func intercept(
                _ request: ApiRequest,
                context: MiddlewareContext,
                next: @Sendable (ApiRequest) async throws -> RawResponse
            ) async throws -> RawResponse {
                var request = request
                request.headers.add("a\r\nX-Evil: 1", for: "X-Note")
                return try await next(request)
            }
        }
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [Injector()])
        let error = await #expect(throws: ApiError.self) { try await session.perform(Ping()) }
        #expect(error == .invalidRequest(.invalidHeader(name: "X-Note")))
        #expect(server.requests.isEmpty)
    }

    @Test func cancelAllRequestsEndsACallWaitingInAMiddleware() async throws {
        let mock = MockMiddleware()
        mock.on(Ping.self, reply: CannedResponse.text("late").delayed(by: .seconds(30)))
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [mock])
        let call = Task { try await session.perform(Ping()) }
        try await Task.sleep(for: .milliseconds(50))
        let start = ContinuousClock.now
        session.cancelAllRequests()
        let result = await call.result
        #expect(throws: ApiError.cancelled) { try result.get() }
        #expect(ContinuousClock.now - start < promptly)  // not the 30 s delay
    }

    @Test(arguments: [
        (waits: [true], ownTask: false),
        (waits: [true, true], ownTask: false),
        (waits: [true, false], ownTask: true),
        (waits: [false], ownTask: true),
    ])
    func aCallRunsInATaskOfItsOwnOnlyWhenAMiddlewareMayWaitOnItsOwn(waits: [Bool], ownTask: Bool) async throws {
        let log = EventLog()
        let session = server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: waits.map { TaskRecorder(waitsOnlyInNext: $0, log: log) }
        )
        let caller = currentTaskID()
        _ = try await session.perform(Ping())
        #expect(log.events.count == waits.count)
        #expect(Set(log.events).count == 1)  // every middleware of a call runs in the same task
        #expect((log.events.first != caller) == ownTask)
    }

    @Test func theMiddlewaresOfTheLibraryThatWaitOnlyInNextSaySo() {
        #expect(LoggingMiddleware().waitsOnlyInNext)
        #expect(ObserverMiddleware().waitsOnlyInNext)
        #expect(!RetryMiddleware().waitsOnlyInNext)
        #expect(!MinimumDurationMiddleware(minimum: .seconds(1)).waitsOnlyInNext)
        #expect(!MockMiddleware().waitsOnlyInNext)
        #expect(!Tracer(name: "a", log: EventLog()).waitsOnlyInNext)  // a middleware that does not say
    }

    @Test(.timeLimit(.minutes(1)))
    func cancelAllRequestsEndsACallInTheCallersTaskAndLeavesThatTaskAlone() async throws {
        server.on(.get, "/ping", reply: CannedResponse.text("late").delayed(by: .seconds(30)))
        let log = EventLog()
        let session = server.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [TaskRecorder(waitsOnlyInNext: true, log: log)]
        )
        let call = Task { () -> (Result<Data, any Error>, callerCancelled: Bool, ranInCaller: Bool) in
            let caller = currentTaskID()
            let result: Result<Data, any Error>
            do {
                result = .success(try await session.perform(Ping()))
            } catch {
                result = .failure(error)
            }
            return (result, Task.isCancelled, log.events == [caller])
        }
        try await waitUntil { !server.requests.isEmpty }
        let start = ContinuousClock.now
        session.cancelAllRequests()
        let (result, callerCancelled, ranInCaller) = await call.value
        #expect(throws: ApiError.cancelled) { try result.get() }
        #expect(ContinuousClock.now - start < promptly)  // not the 30 s delay
        #expect(ranInCaller)
        #expect(!callerCancelled)
    }

    @Test func theCompletionHandlerFormRunsTheChainToo() async throws {
        let log = EventLog()
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [Tracer(name: "a", log: log)])
        let body = try await withCheckedThrowingContinuation { continuation in
            session.perform(Ping()) { continuation.resume(with: $0) }
        }
        #expect(String(decoding: body, as: UTF8.self) == "pong")
        #expect(log.events == ["a>1", "a<200"])
    }

    @Test func cancellingTheHandleEndsACallWaitingInAMiddleware() async throws {
        let mock = MockMiddleware()
        mock.on(Ping.self, reply: CannedResponse.text("late").delayed(by: .seconds(30)))
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [mock])
        let result = await withCheckedContinuation { continuation in
            let handle = session.perform(Ping()) { continuation.resume(returning: $0) }
            handle.cancel()
        }
        #expect(throws: ApiError.cancelled) { try result.get() }
    }
}
