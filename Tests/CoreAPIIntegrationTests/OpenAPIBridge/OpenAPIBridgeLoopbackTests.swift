#if OpenAPI
    import CoreAPI
    import CoreAPIOpenAPI
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime
    import Testing

    /// A client made by swift-openapi-generator, unchanged, over ``ApiSessionTransport`` against the
    /// loopback notes server, on each engine: parameters, bodies both ways and response codes.
    @Suite(.timeLimit(.minutes(1)))
    struct OpenAPIBridgeLoopbackTests {
        @Test(arguments: TestTransport.bridgeEngines)
        func pathQueryAndHeaderParametersReachTheServerAndTheJSONComesBack(_ transport: TestTransport) async throws {
            let server = try NotesServer.shared()
            let recorder = RecordingMiddleware()
            let session = transport.makeSession(hostProvider: DictionaryHostProvider([:]), middlewares: [recorder])
            let client = server.client(session)

            let output = try await client.getNote(
                path: .init(noteID: 7),
                query: .init(fields: ["title", "tags"]),
                headers: .init(xRequestTag: "tag-1")
            )
            let note = try output.ok.body.json
            #expect(
                note
                    == .init(id: 7, title: "note 7", tags: ["a", "b"], requestTag: "tag-1", fields: ["title", "tags"])
            )
            // The session's chain saw the call under its operation ID, with the generated request as it is.
            let call = try #require(recorder.calls.first)
            #expect(call.name == "getNote")
            #expect(call.request.url.absoluteString == "\(server.serverURL)/notes/7?fields=title&fields=tags")
            #expect(call.request.headers["X-Request-Tag"] == "tag-1")
            #expect(call.request.headers["Accept"] == "application/json")
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func everyResponseCodeIsHandedToTheGeneratedClient(_ transport: TestTransport) async throws {
            let server = try NotesServer.shared()
            let client = server.client(transport.makeSession(hostProvider: DictionaryHostProvider([:])))

            let missing = try await client.getNote(path: .init(noteID: 8))
            #expect(try missing.notFound.body.json == .init(code: "not_found", message: "no note 8"))

            let created = try await client.createNote(body: .json(.init(title: "groceries", tags: ["home"])))
            let ok = try created.created
            #expect(ok.headers.location == "/v1/notes/42")
            #expect(try ok.body.json == .init(id: 42, title: "groceries", tags: ["home"]))

            let refused = try await client.createNote(body: .json(.init(title: "", tags: [])))
            #expect(try refused.badRequest.body.json.code == "bad_title")

            // A 503 is the generated client's own case for it, not an error of the transport.
            let unavailable = try await client.echo(query: .init(key: UUID().uuidString, failures: 1))
            guard case .serviceUnavailable(let payload) = unavailable else {
                Issue.record("expected the 503, got \(unavailable)")
                return
            }
            #expect(try payload.body.json.code == "unavailable")
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func aMultipartBodyArrivesPartByPart(_ transport: TestTransport) async throws {
            let server = try NotesServer.shared()
            let client = server.client(transport.makeSession(hostProvider: DictionaryHostProvider([:])))
            let file = exportedBytes(300_000)

            let output = try await client.addAttachment(
                body: .multipartForm([
                    .title(.init(payload: .init(body: HTTPBody("receipt")))),
                    .file(.init(payload: .init(body: HTTPBody(file)), filename: "receipt.bin")),
                ])
            )
            let parts = try output.ok.body.json.parts
            #expect(parts.map(\.name) == ["title", "file"])
            #expect(parts.map(\.size) == [7, 300_000])
            #expect(parts[1].filename == "receipt.bin")
            #expect(parts[1].contentType == "application/octet-stream")
            #expect(parts[1].sha256 == Self.sha256(file))
        }

        @Test(arguments: TestTransport.bridgeEngines, [true, false])
        func aRawBodyIsStreamedToTheServer(_ transport: TestTransport, knownLength: Bool) async throws {
            let server = try NotesServer.shared()
            let client = server.client(transport.makeSession(hostProvider: DictionaryHostProvider([:])))
            let bytes = exportedBytes(3 * 1024 * 1024)
            // A body produced while it is sent, read once: it is streamed, never gathered first.
            let (chunks, continuation) = AsyncStream<HTTPBody.ByteChunk>.makeStream()
            let producer = Task {
                for start in stride(from: 0, to: bytes.count, by: 256 * 1024) {
                    continuation.yield(HTTPBody.ByteChunk(bytes[start..<min(start + 256 * 1024, bytes.count)]))
                }
                continuation.finish()
            }
            defer { producer.cancel() }
            let body = HTTPBody(
                chunks,
                length: knownLength ? .known(Int64(bytes.count)) : .unknown,
                iterationBehavior: .single
            )

            let upload = try await client.upload(path: .init(name: "big"), body: .binary(body)).ok.body.json
            #expect(upload.size == bytes.count)
            #expect(upload.sha256 == Self.sha256(bytes))
            if knownLength {
                #expect(upload.contentLength == String(bytes.count))
            }
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func aStreamedResponseComesBackWithItsBytes(_ transport: TestTransport) async throws {
            let server = try NotesServer.shared()
            let client = server.client(transport.makeSession(hostProvider: DictionaryHostProvider([:])))

            let output = try await client.export(query: .init(size: 3_000_000, chunk: 100_000))
            let body = try output.ok.body.binary
            #expect(body.length == .known(3_000_000))
            #expect(body.iterationBehavior == .single)
            let data = try await Data(collecting: body, upTo: 4_000_000)
            #expect(data == exportedBytes(3_000_000))
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func theFirstBytesArriveWhileTheServerStillSends(_ transport: TestTransport) async throws {
            let server = try NotesServer.shared()
            let client = server.client(transport.makeSession(hostProvider: DictionaryHostProvider([:])))
            let started = ContinuousClock.now

            // The server sends 1000 bytes, then waits 30 s before the next 1000.
            let output = try await client.export(query: .init(size: 2000, chunk: 1000, delayMs: 30_000))
            var iterator = try output.ok.body.binary.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            #expect(Data(first) == exportedBytes(first.count))
            #expect(ContinuousClock.now - started < .seconds(30))
        }

        static func sha256(_ data: Data) -> String {
            SHA256.digest(of: data).map { String(format: "%02x", $0) }.joined()
        }
    }
#endif
