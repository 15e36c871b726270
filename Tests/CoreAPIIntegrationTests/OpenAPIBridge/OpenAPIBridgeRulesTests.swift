#if OpenAPI
    import CoreAPI
    import CoreAPIOpenAPI
    import Foundation
    import OpenAPIRuntime
    import Testing

    /// The session's rules under a generated client, on each engine against the loopback notes server:
    /// redirects with secrets stripped across origins, retry, the deadline, the idle timeout, the size
    /// limit and cancellation, each ending the call with CoreAPI's typed error inside `ClientError`.
    @Suite(.timeLimit(.minutes(1)))
    struct OpenAPIBridgeRulesTests {
        @Test(arguments: TestTransport.bridgeEngines, [false, true])
        func aRedirectKeepsAuthorizationOnTheSameOriginOnly(
            _ transport: TestTransport,
            crossesOrigin: Bool
        ) async throws {
            let server = try NotesServer.shared()
            let session = transport.makeSession(
                hostProvider: DictionaryHostProvider([:]),
                headers: ["Authorization": "Bearer secret-token", "X-Plain": "kept"]
            )
            let target = (crossesOrigin ? server.otherOriginURL : server.serverURL).appendingPathComponent("echo")

            let echo = try await server.client(session).echo(query: .init(redirectTo: target.absoluteString)).ok.body
                .json
            #expect(echo.port == (crossesOrigin ? server.port2 : server.port))
            let names = Set(echo.headers.compactMap { $0.first?.lowercased() })
            #expect(names.contains("authorization") == !crossesOrigin)
            #expect(names.contains("x-plain"))
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func theRetryMiddlewareRetriesAnOperationThatGot503(_ transport: TestTransport) async throws {
            let server = try NotesServer.shared()
            let recorder = RecordingMiddleware()
            let session = transport.makeSession(
                hostProvider: DictionaryHostProvider([:]),
                middlewares: [RetryMiddleware(policy: RetryPolicy(maximumAttempts: 3)), recorder]
            )

            let echo = try await server.client(session).echo(query: .init(key: UUID().uuidString, failures: 2))
            #expect(try echo.ok.body.json.attempts == 3)
            #expect(recorder.calls.map(\.name) == ["echo", "echo", "echo"])
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func theDeadlineEndsTheCallWithTimeoutInsideClientError(_ transport: TestTransport) async throws {
            let server = try NotesServer.shared()
            let client = server.client(
                transport.makeSession(hostProvider: DictionaryHostProvider([:])),
                options: CallOptions(deadline: .milliseconds(500))
            )
            let started = ContinuousClock.now

            let error = await #expect(throws: ClientError.self) {
                _ = try await client.echo(query: .init(delayMs: 30_000))
            }
            #expect(error?.operationID == "echo")
            #expect(error.flatMap { apiError(of: $0) } == .timeout)
            #expect(ContinuousClock.now - started < .seconds(30))
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func theDeadlineEndsAStreamedBodyMidway(_ transport: TestTransport) async throws {
            let server = try NotesServer.shared()
            let client = server.client(
                transport.makeSession(hostProvider: DictionaryHostProvider([:])),
                options: CallOptions(deadline: .seconds(2))
            )
            let started = ContinuousClock.now

            let body = try await client.export(query: .init(size: 2000, chunk: 1000, delayMs: 30_000)).ok.body.binary
            await #expect(throws: ApiError.timeout) {
                _ = try await Data(collecting: body, upTo: 10_000)
            }
            #expect(ContinuousClock.now - started < .seconds(30))
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func theIdleTimeoutEndsTheCallWithTimeoutInsideClientError(_ transport: TestTransport) async throws {
            let server = try NotesServer.shared()
            let client = server.client(
                transport.makeSession(hostProvider: DictionaryHostProvider([:])),
                options: CallOptions(timeout: .milliseconds(500))
            )
            let started = ContinuousClock.now

            let error = await #expect(throws: ClientError.self) {
                _ = try await client.echo(query: .init(delayMs: 30_000))
            }
            #expect(error.flatMap { apiError(of: $0) } == .timeout)
            #expect(ContinuousClock.now - started < .seconds(30))
        }

        @Test(arguments: TestTransport.bridgeEngines, [ApiSessionTransport.ResponseBodies.streamed, .collected])
        func theSizeLimitEndsTheCall(
            _ transport: TestTransport,
            bodies: ApiSessionTransport.ResponseBodies
        ) async throws {
            let server = try NotesServer.shared()
            let client = server.client(
                transport.makeSession(hostProvider: DictionaryHostProvider([:])),
                options: CallOptions(maximumResponseSize: 1_000_000),
                responseBodies: bodies
            )

            // The declared length is over the limit: the call fails before the body is read.
            let error = await #expect(throws: ClientError.self) {
                _ = try await client.export(query: .init(size: 2_000_000, chunk: 100_000))
            }
            #expect(error.flatMap { apiError(of: $0) } == .responseTooLarge(limit: 1_000_000))
            // Within the limit, the same call succeeds with every byte.
            let body = try await client.export(query: .init(size: 1_000_000, chunk: 100_000)).ok.body.binary
            #expect(try await Data(collecting: body, upTo: 2_000_000) == exportedBytes(1_000_000))
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func cancellingTheTaskEndsTheCallAtOnce(_ transport: TestTransport) async throws {
            let server = try NotesServer.shared()
            let client = server.client(transport.makeSession(hostProvider: DictionaryHostProvider([:])))
            let started = ContinuousClock.now

            let call = Task {
                try await client.echo(query: .init(delayMs: 30_000))
            }
            try await Task.sleep(for: .milliseconds(300))
            call.cancel()
            let result = await call.result
            #expect(ContinuousClock.now - started < .seconds(30))
            guard case .failure(let error) = result else {
                Issue.record("the cancelled call succeeded")
                return
            }
            #expect(apiError(of: error) == .cancelled)
        }
    }
#endif
