import CoreAPI
import CoreAPIJSON
import CoreAPIText
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Real HTTP against the loopback fixture server, over every transport.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(1)))
    struct LoopbackTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        func makeSession(_ transport: TestTransport) -> ApiSession {
            transport.makeSession(hostProvider: server.hosts)
        }

        @Test(arguments: TestTransport.underTest)
        func queryParametersReachTheServerEscaped(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let echo = try await session.perform(
                EchoSearch(query: "a+b & c=d?/#% é", page: 2, tags: ["x", "y"], exact: nil)
            )
            #expect(echo.method == "GET")
            #expect(echo.path == "/echo/search")
            #expect(echo.query == "page=2&query=a%2Bb%20%26%20c%3Dd%3F%2F%23%25%20%C3%A9&tags%5B%5D=x&tags%5B%5D=y")
            #expect(echo.bodySize == 0)
            #expect(echo.headers["x-wrapped-by"] == transport.addedWrapperField)
        }

        @Test(arguments: TestTransport.underTest)
        func jsonBodyReachesTheServer(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let echo = try await session.perform(EchoCreate(name: "Lamp", price: 12.5, note: nil))
            #expect(echo.method == "POST")
            #expect(echo.body == #"{"name":"Lamp","price":12.5}"#)
            #expect(echo.headers["content-type"] == "application/json")
        }

        @Test(arguments: TestTransport.underTest)
        func formBodyReachesTheServer(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let echo = try await session.perform(EchoForm(title: "a b&c", count: 3))
            #expect(echo.method == "PUT")
            #expect(echo.body == "count=3&title=a%20b%26c")
            #expect(echo.headers["content-type"] == "application/x-www-form-urlencoded; charset=utf-8")
        }

        @Test(arguments: TestTransport.underTest, [400, 404, 409, 500, 503])
        func errorStatusGoesThroughTheFamilyProcess(transport: TestTransport, code: Int) async throws {
            let session = makeSession(transport)
            let error = await #expect(throws: FixtureServiceError.self) {
                try await session.perform(StatusCall(code: code))
            }
            #expect(error == FixtureServiceError(status: code, message: "status \(code) from fixture"))
        }

        @Test(arguments: TestTransport.underTest)
        func unacceptableStatusKeepsCodeHeadersAndBody(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(RawGet(path: "/status/418"))
            }
            guard case .unacceptableStatus(let failure) = error else {
                Issue.record("expected unacceptableStatus, got \(String(describing: error))")
                return
            }
            #expect(failure.statusCode == 418)
            #expect(failure.headers["content-type"] == "application/json")
            #expect(String(decoding: failure.body, as: UTF8.self).contains("status 418 from fixture"))
        }

        @Test(arguments: TestTransport.underTest)
        func perMethodAcceptableStatusCodes(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let data = try await session.perform(RawGet(path: "/status/404", acceptableStatusCodes: [200, 404]))
            #expect(String(decoding: data, as: UTF8.self).contains("\"code\": 404"))
        }

        @Test(
            arguments: TestTransport.underTest,
            [
                ("/text/latin1", "café crème, naïve"),
                ("/text/cp1251", "Привет, мир"),
                ("/text/plain", "plain ✓"),
            ]
        )
        func textIsDecodedWithTheResponseCharset(
            transport: TestTransport,
            sample: (path: String, expected: String)
        ) async throws {
            let text = try await makeSession(transport).perform(TextCall(path: sample.path))
            #expect(text == sample.expected)
        }

        @Test(arguments: TestTransport.underTest)
        func gzipBodyIsInflated(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let payload = try await session.perform(GzipCall())
            #expect(payload.compressed)
            #expect(payload.items == Array(0..<100))
        }

        @Test(arguments: TestTransport.underTest)
        func emptyAndHeadResponses(transport: TestTransport) async throws {
            let session = makeSession(transport)
            struct Empty: FixtureMethod {
                typealias Response = EmptyResponse
                var path: String
                var httpMethod: HTTPMethod = .get
                func encode(to encoder: any Encoder) throws {}
            }
            #expect(try await session.perform(Empty(path: "/no-content")).statusCode == 204)
            #expect(try await session.perform(Empty(path: "/empty")).statusCode == 200)
            let head = try await session.perform(Empty(path: "/json/user", httpMethod: .head))
            #expect(head.statusCode == 200)
            #expect(head.headers["content-type"] == "application/json")
        }

        /// Linux truncates `ApiRequest.timeoutInterval` to whole seconds; CoreAPI's own timer keeps 0.5 s.
        @Test(arguments: TestTransport.underTest)
        func perRequestTimeoutEndsAsTimeoutAtItsDeadline(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            await #expect(throws: ApiError.timeout) {
                try await session.perform(DelayCall(milliseconds: 3000, timeout: .seconds(0.5)))
            }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed >= .milliseconds(480))
            #expect(elapsed < .milliseconds(1500))
        }

        @Test(arguments: TestTransport.underTest)
        func requestFasterThanItsTimeoutSucceeds(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let data = try await session.perform(DelayCall(milliseconds: 300, timeout: .seconds(1.2)))
            #expect(String(decoding: data, as: UTF8.self) == #"{"delayed": 300}"#)
        }

        @Test(arguments: TestTransport.underTest)
        func basicChallengeEndsAsUnauthorized(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(RawGet(path: "/basic-auth", timeout: .seconds(5)))
            }
            guard case .unauthorized(let failure) = error else {
                Issue.record("expected unauthorized, got \(String(describing: error))")
                return
            }
            #expect(failure.statusCode == 401)
            #expect(failure.headers["www-authenticate"] == #"Basic realm="fixture""#)
            #expect(ContinuousClock.now - start < .seconds(2))
        }

        @Test(arguments: TestTransport.underTest)
        func unknownHostKeySendsNothing(transport: TestTransport) async throws {
            let session = makeSession(transport)
            struct Elsewhere: FixtureMethod {
                typealias Response = Data
                var hostProviderKey: String { "missing" }
                var path: String { "/fast" }
                var tag: String
                func encode(to encoder: any Encoder) throws {}
            }
            let tag = "unknown-\(UUID().uuidString)"
            await #expect(throws: ApiError.invalidRequest(.unknownHostKey("missing"))) {
                try await session.perform(Elsewhere(tag: tag))
            }
            // The same method with a known key is counted, so the count below can tell.
            _ = try await session.perform(RawGet(path: "/fast", tag: tag + "-control"))
            #expect(try server.count(tag: tag + "-control") == 1)
            #expect(try server.count(tag: tag) == 0)
        }

        @Test(arguments: TestTransport.underTest)
        func invalidHeaderSendsNothing(transport: TestTransport) async throws {
            let session = makeSession(transport)
            struct BadHeader: FixtureMethod {
                typealias Response = Data
                var path: String { "/fast" }
                var tag: String
                var headers: Headers { ["X-Test-Tag": tag, "X-Injected": "a\r\nX-Evil: 1"] }
                func encode(to encoder: any Encoder) throws {}
            }
            let tag = "header-\(UUID().uuidString)"
            await #expect(throws: ApiError.invalidRequest(.invalidHeader(name: "X-Injected"))) {
                try await session.perform(BadHeader(tag: tag))
            }
            #expect(try server.count(tag: tag) == 0)
        }

        @Test(arguments: TestTransport.underTest)
        func swiftTaskCancellationCancelsTheRequest(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let task = Task { try await session.perform(DelayCall(milliseconds: 5000)) }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            await #expect(throws: ApiError.cancelled) { try await task.value }
            #expect(ContinuousClock.now - start < .seconds(3))
        }

        @Test(arguments: TestTransport.underTest)
        func cancelAllRequestsEndsTwentyInFlight(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let results = await withTaskGroup(of: (any Error)?.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        do {
                            _ = try await session.perform(DelayCall(milliseconds: 5000))
                            return nil
                        } catch {
                            return error
                        }
                    }
                }
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(500))
                    session.cancelAllRequests()
                    return CancellationError()
                }
                var errors: [(any Error)?] = []
                for await result in group { errors.append(result) }
                return errors
            }
            let cancelled = results.filter { ($0 as? ApiError) == .cancelled }
            #expect(cancelled.count == 20)
            #expect(ContinuousClock.now - start < .seconds(3))
        }

        @Test(arguments: TestTransport.underTest)
        func completionHandlerDeliversOnTheGivenQueue(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let queue = DispatchQueue(label: "completion-test")
            let key = DispatchSpecificKey<Int>()
            queue.setSpecific(key: key, value: 7)
            let (onQueue, result) = await withCheckedContinuation { continuation in
                session.perform(RawGet(path: "/fast"), queue: queue) { result in
                    continuation.resume(returning: (DispatchQueue.getSpecific(key: key) == 7, result))
                }
            }
            #expect(onQueue)
            #expect(try String(decoding: result.get(), as: UTF8.self) == #"{"ok":true}"#)
        }

        @Test(arguments: TestTransport.underTest)
        func completionHandleCancels(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let result = await withCheckedContinuation { continuation in
                let handle = session.perform(DelayCall(milliseconds: 5000)) { continuation.resume(returning: $0) }
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { handle.cancel() }
            }
            #expect(throws: ApiError.cancelled) { try result.get() }
        }

        @Test(arguments: TestTransport.underTest)
        func defaultSessionNeitherKeepsNorSendsCookies(transport: TestTransport) async throws {
            let session = makeSession(transport)
            let jar = "/echo/cookie-jar/\(UUID().uuidString)"
            _ = try await session.perform(SetCookie(name: "jar", value: "kept", cookiePath: jar))
            let echo = try await session.perform(EchoAt(path: jar))
            #expect(echo.path == jar)
            #expect(echo.headers["cookie"] == nil)
        }

        @Test(arguments: TestTransport.underTest)
        func connectionRefusedIsATransportError(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: DictionaryHostProvider(["fixture": "http://127.0.0.1:1"]))
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(RawGet(path: "/fast"))
            }
            guard case .transport = error else {
                Issue.record("expected a transport error, got \(String(describing: error))")
                return
            }
        }
    }
}
