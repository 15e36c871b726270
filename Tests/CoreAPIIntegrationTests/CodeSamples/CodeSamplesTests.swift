import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keeps the documents' code honest: every ```swift block of README.md and the DocC articles must
/// appear in `CodeSamples.swift`, which is compiled, and the claims the articles make are checked.
@Suite(.timeLimit(.minutes(1)))
struct CodeSamplesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var documents: [URL] {
        var urls = [root.appendingPathComponent("README.md")]
        let sources = root.appendingPathComponent("Sources")
        if let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.pathExtension == "md" && url.path.contains(".docc/") {
                urls.append(url)
            }
        }
        return urls.sorted { $0.path < $1.path }
    }

    /// Lines trimmed, blank lines dropped, joined with newlines.
    static func normalized(_ text: some StringProtocol) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: "\n")
    }

    static func swiftBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(normalized(current!.joined(separator: "\n")))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    @Test func everyDocumentedSampleIsCompiled() throws {
        let folder = Self.root.appendingPathComponent("Tests/CoreAPIIntegrationTests/CodeSamples")
        let files = [
            "CodeSamples.swift", "CodeSamplesUploads.swift", "CodeSamplesMiddleware.swift",
            "CodeSamplesAsyncHTTPClient.swift", "CodeSamplesServiceModule.swift", "CodeSamplesResponses.swift",
        ]
        let compiled = try files.map { name in
            Self.normalized(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
        }.joined(separator: "\n")
        var count = 0
        for document in Self.documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                count += 1
                #expect(
                    compiled.contains(block),
                    "a sample of \(document.lastPathComponent) is not in CodeSamples*.swift:\n\(block)"
                )
            }
        }
        // README (2) and the seven CoreAPI articles (4 + 2 + 1 + 2 + 3 + 7 + 1) hold at least this many samples.
        #expect(count >= 22)
    }

    @Test func searchUsersSendsTheDocumentedRequest() async throws {
        let server = StubServer()
        server.on(.get, "/users/search", reply: .json("[]"))
        let session = server.makeSession(hosts: ["api": "https://api.example.com"])
        _ = try await session.perform(SearchUsers(query: "ada", limit: 20, token: "t0k"))
        let request = try #require(server.requests.first)
        #expect(request.url.absoluteString == "https://api.example.com/users/search?limit=20&query=ada")
        #expect(request.headers["Authorization"] == "Bearer t0k")
    }

    @Test func addToCartSendsTheDocumentedBodyAndReadsTheShopError() async throws {
        let server = StubServer()
        server.on(.post, "/cart/items", reply: .json(#"{"code": "out_of_stock", "message": "gone"}"#, statusCode: 409))
        let session = server.makeSession(hosts: ["shop": "https://shop.test"])
        let error = await #expect(throws: ShopError.self) {
            try await session.perform(AddToCart(sku: "A-1", quantity: 1))
        }
        #expect(error?.code == "out_of_stock")
        #expect(error?.status == 409)
        #expect(server.requests.first?.bodyText == #"{"quantity":1,"sku":"A-1"}"#)
    }

    @Test func aMissingProductIsTheShopsErrorAndStatusMessagesNameTheirStatuses() async throws {
        let transport = StubTransport()
        transport.on(.get, "/products/A-1", reply: .status(404))
        transport.on(.get, "/products/B-2", reply: .status(429))
        let session = transport.makeSession(hosts: ["shop": "https://shop.test"])
        let error = await #expect(throws: ShopError.self) { try await session.perform(GetProduct(sku: "A-1")) }
        #expect(error?.code == "no-such-product")
        let withMessages = statusMessagesSample(hosts: DictionaryHostProvider(["shop": "https://shop.test"]))
        let limited = await #expect(throws: ApiError.self) {
            try await ApiSession(
                hostProvider: withMessages.hostProvider,
                transport: transport,
                statusMessages: withMessages.statusMessages
            ).perform(GetProduct(sku: "B-2"))
        }
        #expect(
            limited?.description.hasPrefix("Unacceptable status: Too many attempts. Try again in a minute.") == true
        )
        withMessages.invalidate()
    }

    @Test func environmentsSampleSwitchesToStage() throws {
        let (hosts, _) = try environmentsSample()
        #expect(hosts.current == "stage")
        #expect(try hosts.host(for: "api") == "https://stage.example.com")
    }

    @Test func signInSendsTheDocumentedFormBody() throws {
        let session = ApiSession(hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]))
        let request = try session.makeURLRequest(for: SignIn(email: "ann@example.com", password: "open sesame+1"))
        #expect(
            request.httpBody.map { String(decoding: $0, as: UTF8.self) }
                == "email=ann%40example.com&password=open+sesame%2B1"
        )
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func bookingDatesUseTheModelsStrategyInEveryEncoder() throws {
        let booking = Booking(
            room: 7,
            from: Date(timeIntervalSince1970: 1_700_000_000.123),
            to: Date(timeIntervalSince1970: 1_700_086_400)
        )
        let json = try #require(try JsonParametersEncoder(dateEncoding: .iso8601).body(for: booking))
        #expect(String(decoding: json, as: UTF8.self) == #"{"from":1700000000123,"room":7,"to":1700086400000}"#)
        let form = try #require(try FormParametersEncoder(dateEncoding: .iso8601).body(for: booking))
        #expect(String(decoding: form, as: UTF8.self) == "from=1700000000123&room=7&to=1700086400000")
    }

    @Test func uploadDocumentSendsTheDocumentedParts() throws {
        let body = try #require(try MultipartFormDataEncoder().body(for: makeUploadDocumentSample()))
        let boundary = body.boundary
        let expected =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nQ3\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\nfinance\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\n2026\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"q3-report.pdf\"\r\n"
            + "Content-Type: application/pdf\r\n\r\n%PDF-1.7\r\n--\(boundary)--\r\n"
        #expect(String(decoding: body.data, as: UTF8.self) == expected)
    }

    @Test func theSandboxSampleAnswersWithoutANetwork() async throws {
        let session = makeSandboxSession()
        let user = try await session.perform(GetUser(id: 42))
        #expect(user.name == "Ada")
    }

    @Test func headerSamplesSendTheDocumentedFields() async throws {
        let server = StubServer()
        server.on(.get, "/users/*", reply: .json(#"{"id": 1, "name": "A"}"#))
        let session = server.makeSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]),
            headers: ["X-Api-Key": "from-session"],
            middlewares: makeHeaderMiddlewares()
        )
        _ = try await session.perform(GetUser(id: 1))
        let request = try #require(server.requests.first)
        #expect(request.headers["X-App-Version"] == "4.2")
        #expect(request.headers["X-Device-ID"] == nil)
        #expect(request.headers["X-Api-Key"] == "k-123")
    }
}
