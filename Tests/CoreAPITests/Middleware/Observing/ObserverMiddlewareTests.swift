import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Call: ApiMethod {
    typealias Response = Data
    var path: String
    var acceptableStatusCodes: CallOptions.AcceptableStatusCodes = .successful
    var options: CallOptions { CallOptions(acceptableStatusCodes: acceptableStatusCodes) }
    var hostProviderKey: String { "api" }
    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(
            host: try hostProvider.host(for: hostProviderKey),
            path: path,
            queryItems: [.init(name: "token", value: "SECRET")]
        )
    }
    func encode(to encoder: any Encoder) throws {}
}

private final class FailureRecorder: ObserverMiddleware.FailureDelegate {
    private let failures = LockedFailures()
    func apiSession(_ session: ApiSession, didFail failure: ObserverMiddleware.Failure) { failures.append(failure) }
    var recorded: [ObserverMiddleware.Failure] { failures.values }
}

private final class LockedFailures: @unchecked Sendable {  // `storage` is only touched under `lock`
    private let lock = NSLock()
    private var storage: [ObserverMiddleware.Failure] = []
    func append(_ failure: ObserverMiddleware.Failure) { lock.withLock { storage.append(failure) } }
    var values: [ObserverMiddleware.Failure] { lock.withLock { storage } }
}

private final class LockedMetrics: @unchecked Sendable {  // `storage` is only touched under `lock`
    private let lock = NSLock()
    private var storage: [ObserverMiddleware.Metrics] = []
    func append(_ metrics: ObserverMiddleware.Metrics) { lock.withLock { storage.append(metrics) } }
    var values: [ObserverMiddleware.Metrics] { lock.withLock { storage } }
}

@Suite struct ObserverMiddlewareTests {
    let server = StubTransport()

    init() {
        server.on(.get, "/ok", reply: .text("fine"))
        server.on(.get, "/missing", reply: .status(404))
        server.on(.get, "/denied", reply: .status(401))
        server.on(.get, "/lost", reply: .failure(.transport(.init(kind: .connectionLost))))
    }

    @Test func successesReportMetrics() async throws {
        let metrics = LockedMetrics()
        let observer = ObserverMiddleware { metrics.append($0) }
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [observer])
        _ = try await session.perform(Call(path: "/ok"))
        let recorded = try #require(metrics.values.first)
        #expect(metrics.values.count == 1)
        #expect(recorded.methodName == "Call")
        #expect(recorded.httpMethod == .get)
        #expect(recorded.url?.absoluteString == "https://api.test/ok")
        #expect(recorded.statusCode == 200)
        #expect(recorded.responseBodyBytes == 4)
        #expect(recorded.requestBodyBytes == 0)
        #expect(recorded.duration > .zero)
    }

    @Test func failuresReachTheDelegateAndEveryStream() async throws {
        let recorder = FailureRecorder()
        let observer = ObserverMiddleware(delegate: recorder)
        let first = observer.failures()
        let second = observer.failures()
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [observer])
        _ = try? await session.perform(Call(path: "/missing"))
        _ = try? await session.perform(Call(path: "/denied"))
        _ = try? await session.perform(Call(path: "/lost"))
        _ = try await session.perform(Call(path: "/ok"))
        let summary = recorder.recorded.map {
            "\($0.statusCode.map(String.init) ?? "-") \(ApiError($0.error).category)"
        }
        #expect(summary == ["404 status", "401 unauthorized", "- network"])
        #expect(recorder.recorded.allSatisfy { $0.url?.query == nil && $0.methodName == "Call" })
        for stream in [first, second] {
            var iterator = stream.makeAsyncIterator()
            var codes: [Int?] = []
            for _ in 0..<3 { codes.append(await iterator.next()?.statusCode) }
            #expect(codes == [404, 401, nil])
        }
    }

    @Test func aStatusTheMethodAcceptsIsNoFailure() async throws {
        let recorder = FailureRecorder()
        let metrics = LockedMetrics()
        let observer = ObserverMiddleware(delegate: recorder) { metrics.append($0) }
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [observer])
        _ = try await session.perform(
            Call(path: "/missing", acceptableStatusCodes: CallOptions.AcceptableStatusCodes([200..<300, 404..<405]))
        )
        #expect(recorder.recorded.isEmpty)
        #expect(metrics.values.map(\.statusCode) == [404])
    }

    @Test func theDelegateIsHeldWeakly() async throws {
        var recorder: FailureRecorder? = FailureRecorder()
        let observer = ObserverMiddleware(delegate: recorder)
        weak let weakRecorder = recorder
        recorder = nil
        #expect(weakRecorder == nil)
        #expect(observer.delegate == nil)
    }

    @Test func aStreamEndsWhenTheObserverIsReleased() async throws {
        var observer: ObserverMiddleware? = ObserverMiddleware()
        let stream = try #require(observer?.failures())
        observer = nil
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    /// Each call's start and end reach an events stream, failures with their category; the events
    /// hold no query.
    @Test(.timeLimit(.minutes(1)))
    func eventsFollowEachCall() async throws {
        let observer = ObserverMiddleware()
        let events = observer.events()
        let session = server.makeSession(hosts: ["api": "https://api.test"], middlewares: [observer])
        _ = try await session.perform(Call(path: "/ok"))
        for path in ["/missing", "/denied", "/lost"] {
            _ = try? await session.perform(Call(path: path))
        }
        var seen: [String] = []
        for await event in events {
            switch event {
            case .started(let start):
                #expect(start.url?.query == nil)
                #expect(start.attempt == 1)
                seen.append("start \(start.url?.path ?? "")")
            case .finished(let metrics):
                seen.append("ok \(metrics.statusCode)")
            case .failed(let failure):
                seen.append("\(failure.category)")
            }
            if seen.count == 8 { break }
        }
        #expect(
            seen == [
                "start /ok", "ok 200", "start /missing", "status", "start /denied", "unauthorized", "start /lost",
                "network",
            ]
        )
    }

    @Test(arguments: [
        (ApiError.timeout, ApiError.Category.timeout), (.cancelled, .cancelled),
        (.transport(.init(kind: .offline)), .offline), (.transport(.init(kind: .dns)), .network),
        (.transport(.init(kind: .tls)), .network), (.responseTooLarge(limit: 1), .other),
        (.invalidRequest(.sessionInvalidated), .other),
    ])
    func failuresAreCategorised(error: ApiError, category: ApiError.Category) {
        #expect(ApiError.Category(error) == category)
    }

    @Test func errorsOtherThanApiErrorsAreCategorised() {
        #expect(ApiError.Category(CancellationError()) == .cancelled)
        #expect(ApiError.Category(URLError(.badURL)) == .other)
    }
}
