#if OpenAPI
    import CoreAPI
    import CoreAPIOpenAPI
    import Foundation
    import OpenAPIRuntime
    import Testing

    @testable import GeneratedNotesService

    /// One document, two generators, one server: the notes document (`Fixtures/OpenAPI/openapi.yaml`) as
    /// swift-openapi-generator's client over ``ApiSessionTransport`` and as the service module CoreAPI's
    /// generator writes from it (`Generator/Tests/Goldens/NotesService`), each operation called both ways
    /// against the same loopback server on each engine. The two must agree on every value and every error.
    @Suite(.timeLimit(.minutes(1)))
    struct NotesRoundTripTests {
        /// The generated module's session and the generated client, over the same engine and server.
        struct Pair {
            let session: ApiSession
            let client: Client

            init(_ transport: TestTransport) throws {
                let server = try NotesServer.shared()
                session = transport.makeSession(
                    hostProvider: DictionaryHostProvider([NotesServiceHost.key: server.serverURL.absoluteString])
                )
                client = server.client(transport.makeSession(hostProvider: DictionaryHostProvider([:])))
            }
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func aNoteReadWithPathQueryAndHeaderParametersIsTheSame(_ transport: TestTransport) async throws {
            let pair = try Pair(transport)
            let module = try await pair.session.perform(
                GetNote(noteID: 7, fields: ["title", "tags"], xRequestTag: "tag-1")
            )
            let client = try await pair.client.getNote(
                path: .init(noteID: 7),
                query: .init(fields: ["title", "tags"]),
                headers: .init(xRequestTag: "tag-1")
            ).ok.body.json
            #expect(try sameJSON(module, client))
            #expect(module.requestTag == "tag-1" && module.fields == ["title", "tags"])
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func aCreatedNoteAndARefusedOneAreTheSame(_ transport: TestTransport) async throws {
            let pair = try Pair(transport)
            let module = try await pair.session.perform(CreateNote(requestBody: NewNote(title: "list", tags: ["home"])))
            let client = try await pair.client.createNote(body: .json(.init(title: "list", tags: ["home"])))
                .created.body.json
            #expect(try sameJSON(module, client))

            let refused = try await pair.client.createNote(body: .json(.init(title: "", tags: []))).badRequest.body.json
            let error = await #expect(throws: NotesServiceError.self) {
                try await pair.session.perform(CreateNote(requestBody: NewNote(title: "", tags: [])))
            }
            #expect(error?.status == 400)
            #expect(try sameJSON(error?.body, refused))
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func aMissingNoteIsTheSameErrorBody(_ transport: TestTransport) async throws {
            let pair = try Pair(transport)
            let client = try await pair.client.getNote(path: .init(noteID: 8)).notFound.body.json
            let error = await #expect(throws: NotesServiceError.self) {
                try await pair.session.perform(GetNote(noteID: 8))
            }
            #expect(error?.status == 404)
            #expect(error?.body.code == "not_found")
            #expect(try sameJSON(error?.body, client))
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func aServiceUnavailableIsTheSameErrorBody(_ transport: TestTransport) async throws {
            let pair = try Pair(transport)
            let output = try await pair.client.echo(query: .init(key: UUID().uuidString, failures: 1))
            guard case .serviceUnavailable(let unavailable) = output else {
                Issue.record("expected the 503, got \(output)")
                return
            }
            let error = await #expect(throws: NotesServiceError.self) {
                try await pair.session.perform(Echo2(key: UUID().uuidString, failures: 1))
            }
            #expect(error?.status == 503)
            #expect(try sameJSON(error?.body, try unavailable.body.json))
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func theEchoOfAPlainGetIsTheSame(_ transport: TestTransport) async throws {
            let pair = try Pair(transport)
            let module = try await pair.session.perform(Echo2())
            let client = try await pair.client.echo().ok.body.json
            // The request headers differ by design (each client sends its own Accept and User-Agent).
            #expect(module.method == client.method && module.path == client.path && module.port == client.port)
            #expect(module.method == "GET" && module.path == "/v1/echo")
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func anExportedBodyHasTheSameBytes(_ transport: TestTransport) async throws {
            let pair = try Pair(transport)
            let module = try await pair.session.perform(Export(size: 300_000, chunk: 50_000))
            let body = try await pair.client.export(query: .init(size: 300_000, chunk: 50_000)).ok.body.binary
            let client = try await Data(collecting: body, upTo: 1_000_000)
            #expect(module == client)
            #expect(module == exportedBytes(300_000))
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func aRawUploadArrivesTheSame(_ transport: TestTransport) async throws {
            let pair = try Pair(transport)
            let bytes = exportedBytes(200_000)
            let module = try await pair.session.perform(Upload2(name: "raw.bin", requestBody: bytes))
            let client = try await pair.client.upload(path: .init(name: "raw.bin"), body: .binary(HTTPBody(bytes)))
                .ok.body.json
            #expect(try sameJSON(module, client))
            #expect(module.size == 200_000 && module.contentLength == "200000")
        }

        @Test(arguments: TestTransport.bridgeEngines)
        func aMultipartUploadArrivesTheSame(_ transport: TestTransport) async throws {
            let pair = try Pair(transport)
            let file = exportedBytes(120_000)
            let module = try await pair.session.perform(
                AddAttachment(title: "receipt", file: Attachment(data: file, filename: "receipt.bin"))
            )
            let client = try await pair.client.addAttachment(
                body: .multipartForm([
                    .title(.init(payload: .init(body: HTTPBody("receipt")))),
                    .file(.init(payload: .init(body: HTTPBody(file)), filename: "receipt.bin")),
                ])
            ).ok.body.json
            #expect(module.parts.map(\.name) == client.parts.map(\.name))
            #expect(module.parts.map(\.size) == client.parts.map(\.size))
            #expect(module.parts.map(\.sha256) == client.parts.map(\.sha256))
            #expect(module.parts.map(\.filename) == client.parts.map(\.filename))
            #expect(module.parts.map(\.size) == [7, 120_000])
        }
    }

    /// Whether `first` and `second` encode to the same JSON value (key order aside).
    private func sameJSON(_ first: some Encodable, _ second: some Encodable) throws -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(first) == encoder.encode(second)
    }
#endif
