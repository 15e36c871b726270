#if OpenAPI
    import CoreAPI
    import CoreAPIOpenAPI
    import CoreAPITesting
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime
    import Testing

    /// The generated client over ``ApiSessionTransport`` on `StubTransport`: what reaches the engine,
    /// every status handed back, bodies that cannot be sent again, the cache, logging with redaction and
    /// a swift-openapi middleware inside CoreAPI's chain.
    @Suite struct OpenAPIBridgeStubTests {
        static let serverURL = URL(string: "https://notes.test/v1")!

        static func client(_ session: ApiSession, bodies: ApiSessionTransport.ResponseBodies = .streamed) -> Client {
            Client(serverURL: serverURL, transport: ApiSessionTransport(session: session, responseBodies: bodies))
        }

        @Test func theEngineGetsTheGeneratedRequestAsItIs() async throws {
            let stub = StubTransport()
            stub.on(
                .post,
                "/v1/notes",
                reply: .json(
                    #"{"id": 42, "title": "a", "tags": []}"#,
                    statusCode: 201,
                    headers: ["Location": "/v1/notes/42"]
                )
            )
            let client = Self.client(stub.makeSession(hosts: [:]))

            let created = try await client.createNote(body: .json(.init(title: "a", tags: []))).created
            #expect(created.headers.location == "/v1/notes/42")
            let request = try #require(stub.requests.first)
            #expect(request.method == .post)
            #expect(request.url.absoluteString == "https://notes.test/v1/notes")
            #expect(request.headers["Content-Type"] == "application/json; charset=utf-8")
            let sent = try JSONDecoder().decode(Components.Schemas.NewNote.self, from: try #require(request.body))
            #expect(sent == .init(title: "a", tags: []))
        }

        @Test(arguments: [ApiSessionTransport.ResponseBodies.streamed, .collected], [200, 500, 418])
        func everyStatusIsHandedBackWithItsBody(bodies: ApiSessionTransport.ResponseBodies, status: Int) async throws {
            let stub = StubTransport()
            stub.on(.get, "/v1/notes/7", reply: .json(#"{"id": 7, "title": "t", "tags": []}"#, statusCode: status))
            let client = Self.client(stub.makeSession(hosts: [:]), bodies: bodies)

            let output = try await client.getNote(path: .init(noteID: 7))
            switch output {
            case .ok(let ok) where status == 200:
                #expect(try ok.body.json == .init(id: 7, title: "t", tags: []))
            case .undocumented(let code, let payload) where status != 200:
                #expect(code == status)
                let body = try #require(payload.body)
                #expect(try await String(collecting: body, upTo: 1000) == #"{"id": 7, "title": "t", "tags": []}"#)
            default:
                Issue.record("status \(status) came back as \(output)")
            }
        }

        @Test(arguments: [HTTPBody.Length.known(100_000), .unknown])
        func aRetryOfABodyReadOnceIsRefusedWithATypedError(length: HTTPBody.Length) async throws {
            let stub = StubTransport()
            stub.on(.put, "/v1/uploads/once", reply: .status(503, headers: ["Retry-After": "0"]))
            let session = stub.makeSession(hosts: [:], middlewares: [RetryMiddleware()])
            let bytes = exportedBytes(100_000)
            let body = HTTPBody(
                AsyncStream {
                    $0.yield(HTTPBody.ByteChunk(bytes))
                    $0.finish()
                },
                length: length,
                iterationBehavior: .single
            )

            let error = await #expect(throws: ClientError.self) {
                _ = try await Self.client(session).upload(path: .init(name: "once"), body: .binary(body))
            }
            guard case .invalidRequest(.bodyStreamFailed(let failure)) = error.flatMap({ apiError(of: $0) }) else {
                Issue.record("expected the refusal, got \(String(describing: error))")
                return
            }
            #expect(failure.cause is ApiSessionTransport.BodyNotReplayable)
            // The first attempt sent every byte; the second sent nothing at all.
            #expect(stub.requests.map(\.body) == [bytes])
        }

        @Test func aBodyThatCanBeReadAgainIsSentAgainWhole() async throws {
            let stub = StubTransport()
            let attempts = LockedCounter()
            stub.on(.put, "/v1/uploads/again") { _ in
                attempts.increment() == 1
                    ? .status(503, headers: ["Retry-After": "0"]) : .json(#"{"size": 100000, "sha256": "x"}"#)
            }
            let session = stub.makeSession(hosts: [:], middlewares: [RetryMiddleware()])
            let bytes = exportedBytes(100_000)  // over the in-memory limit: streamed, and read again for the retry

            let upload = try await Self.client(session).upload(
                path: .init(name: "again"),
                body: .binary(HTTPBody(bytes))
            )
            #expect(try upload.ok.body.json.size == 100_000)
            #expect(stub.requests.map(\.body) == [bytes, bytes])
        }

        @Test func aCachedGetIsAnsweredFromTheStore() async throws {
            let stub = StubTransport()
            stub.on(
                .get,
                "/v1/notes/7",
                reply: .json(#"{"id": 7, "title": "t", "tags": []}"#, headers: ["Cache-Control": "max-age=60"])
            )
            let cache = HTTPCacheMiddleware(store: HTTPCacheMiddleware.MemoryStore())
            let client = Self.client(stub.makeSession(hosts: [:], middlewares: [cache]))

            for _ in 0..<2 {
                #expect(try await client.getNote(path: .init(noteID: 7)).ok.body.json.title == "t")
            }
            #expect(stub.requests.count == 1)
        }

        @Test func identicalGetsInFlightShareOneExchange() async throws {
            let stub = StubTransport()
            stub.on(
                .get,
                "/v1/notes/7",
                reply: .json(#"{"id": 7, "title": "t", "tags": []}"#).delayed(by: .milliseconds(500))
            )
            let session = stub.makeSession(hosts: [:], defaults: CallOptions(sharesIdenticalCalls: true))
            let client = Self.client(session)

            async let first = client.getNote(path: .init(noteID: 7))
            async let second = client.getNote(path: .init(noteID: 7))
            let titles = try await [first.ok.body.json.title, second.ok.body.json.title]
            #expect(titles == ["t", "t"])
            #expect(stub.requests.count == 1)
        }

        @Test func theLogNamesTheOperationAndHidesTheToken() async throws {
            let stub = StubTransport()
            stub.on(.get, "/v1/notes/7", reply: .json(#"{"id": 7, "title": "t", "tags": []}"#))
            let records = LockedRecords()
            let logging = LoggingMiddleware(level: .debug) { records.append($0) }
            let session = ApiSession(
                hostProvider: DictionaryHostProvider([:]),
                transport: stub,
                headers: ["Authorization": "Bearer secret-token"],
                middlewares: [logging]
            )

            _ = try await Self.client(session).getNote(path: .init(noteID: 7)).ok
            let logged = records.all
            #expect(!logged.isEmpty)
            #expect(logged.allSatisfy { $0.methodName == "getNote" })
            #expect(logged.allSatisfy { !$0.message.contains("secret-token") })
        }

        @Test func aClientMiddlewareRunsInsideTheChain() async throws {
            let stub = StubTransport()
            stub.on(.get, "/v1/notes/7", reply: .json(#"{"id": 7, "title": "t", "tags": []}"#))
            let session = stub.makeSession(
                hosts: [:],
                middlewares: [ApiSessionTransport.ClientMiddlewareAdapter(OperationTagging())]
            )

            let output = try await Self.client(session).getNote(path: .init(noteID: 7))
            // The middleware's request went on, and its response came back.
            #expect(stub.requests.first?.headers["X-Operation"] == "getNote")
            #expect(stub.requests.first?.url.absoluteString == "https://notes.test/v1/notes/7")
            guard case .undocumented(statusCode: 299, _) = output else {
                Issue.record("expected the middleware's status, got \(output)")
                return
            }
        }
    }

    /// A swift-openapi middleware that names the operation in `X-Operation` and answers `299` for a `200`.
    private struct OperationTagging: ClientMiddleware {
        func intercept(
            _ request: HTTPRequest,
            body: HTTPBody?,
            baseURL: URL,
            operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            request.headerFields[HTTPField.Name("X-Operation")!] = operationID
            var (response, responseBody) = try await next(request, body, baseURL)
            if response.status == .ok {
                response.status = 299
            }
            return (response, responseBody)
        }
    }

    /// A counter shared by a stub's handler calls.
    private final class LockedCounter: @unchecked Sendable {  // `value` is only used under `lock`
        private let lock = NSLock()
        private var value = 0

        /// Adds one and returns the new count.
        func increment() -> Int {
            lock.withLock {
                value += 1
                return value
            }
        }
    }

    /// The records a logging middleware's handler received.
    private final class LockedRecords: @unchecked Sendable {  // `records` is only used under `lock`
        private let lock = NSLock()
        private var records: [LoggingMiddleware.Record] = []

        var all: [LoggingMiddleware.Record] { lock.withLock { records } }

        func append(_ record: LoggingMiddleware.Record) {
            lock.withLock { records.append(record) }
        }
    }
#endif
