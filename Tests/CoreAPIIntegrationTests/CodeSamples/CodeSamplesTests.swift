import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keeps the documents' code honest: every ```swift block of README.md and the DocC articles is compiled as a file of
/// its own, `Samples/<Document>-<n>.swift` for the n-th block of `<Document>.md`, with exactly the imports the block
/// shows, and the claims the articles make are checked. So is every ```swift block of a `///` doc comment in
/// `Sources`: `Samples/DocComments/<File>-<n>.swift` for the n-th block of `<File>.swift`, which may also import the
/// modules the comment takes as given. A block whose first line is `// A mistake, on purpose: …` has no sample: a
/// program of `Tests/Misuse` holds its lines, and `Scripts/check-misuse.sh` checks that it does not compile.
///
/// A sample file holds the block's import lines, then the block's other lines in order (indentation aside). A block
/// of statements sits in the body of a function (a `@Playground` one when it shows values in comments), a member in
/// a type it fits; a sample that imports a trait's module (CoreAPIAsyncHTTPClient, CoreAPILogging, CoreAPIMetrics,
/// CoreAPITracing, CoreAPIHTTPTypes, CoreAPIOpenAPI or the library it brings) is inside `#if` of those traits
/// (`#if Logging && Tracing`), so it compiles only in a build with them (CI's all-traits build), but is checked either
/// way. What a sample takes as given without showing it lives in `CodeSamplesSupport.swift`, or in the wrapper
/// function's parameters.
@Suite(.timeLimit(.minutes(1)))
struct CodeSamplesTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let samplesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Samples")

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

    /// Lines trimmed, blank lines dropped.
    static func normalizedLines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The text of every ```swift block, in order.
    static func swiftBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    /// Whether a trimmed line is an import declaration: attributes, an access modifier, `import`, an optional kind
    /// and a module path.
    static func isImport(_ line: String) -> Bool {
        var words = line.split(whereSeparator: \.isWhitespace)[...]
        while let word = words.first, word.hasPrefix("@") {
            words = words.dropFirst()
        }
        let modifiers: Set<Substring> = ["public", "package", "internal", "fileprivate", "private", "open"]
        if let word = words.first, modifiers.contains(word) {
            words = words.dropFirst()
        }
        guard words.first == "import" else { return false }
        words = words.dropFirst()
        let kinds: Set<Substring> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        if words.count == 2, let kind = words.first, kinds.contains(kind) {
            words = words.dropFirst()
        }
        guard words.count == 1, let path = words.first else { return false }
        return path.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    }

    /// How many lines of `sample`, from its first, appear in `file` contiguously and in order at best.
    static func longestContiguousMatch(of sample: [String], in file: [String]) -> Int {
        var best = 0
        for start in file.indices {
            var length = 0
            while length < sample.count, start + length < file.count, file[start + length] == sample[length] {
                length += 1
            }
            best = max(best, length)
            if best == sample.count { break }
        }
        return best
    }

    /// The package's traits, in the order a sample's condition names them.
    static let traitOrder = ["AsyncHTTPClient", "Logging", "Metrics", "Tracing", "HTTPTypes", "OpenAPI"]

    /// The trait a module of an import line needs: CoreAPI's module built with it, or the library it brings.
    static func trait(ofImport line: String) -> String? {
        let modules: [String: String] = [
            "CoreAPIAsyncHTTPClient": "AsyncHTTPClient", "AsyncHTTPClient": "AsyncHTTPClient",
            "CoreAPILogging": "Logging", "Logging": "Logging",
            "CoreAPIMetrics": "Metrics", "Metrics": "Metrics",
            "CoreAPITracing": "Tracing", "Tracing": "Tracing",
            "CoreAPIHTTPTypes": "HTTPTypes", "HTTPTypes": "HTTPTypes",
            "CoreAPIOpenAPI": "OpenAPI", "OpenAPIRuntime": "OpenAPI",
        ]
        guard let module = line.split(whereSeparator: \.isWhitespace).last else { return nil }
        return modules[String(module)]
    }

    /// The Swift files of `Sources`, whose doc comments hold ```swift blocks too.
    static var sourceFiles: [URL] {
        var urls: [URL] = []
        let sources = root.appendingPathComponent("Sources")
        if let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.pathExtension == "swift" {
                urls.append(url)
            }
        }
        return urls.sorted { $0.path < $1.path }
    }

    /// The text of every ```swift block in the `///` doc comments of a Swift file, in order, without the slashes.
    /// A block the comment does not close ends with the comment, as DocC ends it.
    static func docCommentSwiftBlocks(in source: String) -> [String] {
        let comments = source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            return trimmed.hasPrefix("///") ? String(trimmed.dropFirst(3)) : "```"
        }
        return swiftBlocks(in: comments.joined(separator: "\n"))
    }

    /// The first line of a block that shows a mistake on purpose. Such a block has no sample: a program of
    /// `Tests/Misuse`, which `Scripts/check-misuse.sh` checks does not compile, holds its lines instead.
    static let mistakeMark = "// A mistake, on purpose"

    /// The programs of `Tests/Misuse` that must not compile, by file name, with their lines normalized.
    static func misusePrograms() throws -> [(name: String, lines: [String])] {
        let folder = root.appendingPathComponent("Tests/Misuse")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".swift") }
            .map { name in
                (name, normalizedLines(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)))
            }
            .filter { $0.lines.first?.hasPrefix("// expect-error: ") == true }
    }

    /// A ```swift block of a document or a doc comment, and the sample file that compiles it.
    struct Block {
        /// The block's text.
        let text: String
        /// The document and the block's number in it, as a message names them: `GettingStarted.md sample 3`.
        let name: String
        /// What the sample file's first line starts with, before a period or a colon: `// GettingStarted.md, sample 3`.
        let header: String
        /// The sample file's path in `Samples/`.
        let fileName: String
        /// Whether the sample may import modules the block does not show: a doc comment's block takes its own
        /// module, and what that module imports, as given.
        let takesImportsAsGiven: Bool

        /// Whether the block shows a mistake on purpose, and so has a program of `Tests/Misuse` instead of a sample.
        var isMistake: Bool {
            normalizedLines(text).first?.hasPrefix(mistakeMark) == true
        }
    }

    /// Checks that `block` is compiled: that its sample file starts by naming it and holds its imports, then its
    /// other lines contiguously and in order, under the traits its imports need and no other condition; or, for a
    /// block that shows a mistake on purpose, that a program of `Tests/Misuse` that must not compile holds it.
    static func check(_ block: Block, misusePrograms: [(name: String, lines: [String])]) {
        let blockLines = normalizedLines(block.text)
        let blockCode = blockLines.filter { !isImport($0) }
        if block.isMistake {
            let holders = misusePrograms.filter { program in
                longestContiguousMatch(of: blockCode, in: program.lines.filter { !isImport($0) }) == blockCode.count
            }
            #expect(
                !holders.isEmpty,
                "\(block.name) shows a mistake, but no program of Tests/Misuse that must not compile holds its lines"
            )
            return
        }
        let fileName = block.fileName
        let url = samplesFolder.appendingPathComponent(fileName)
        guard let fileText = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("\(block.name) has no file Samples/\(fileName)")
            return
        }
        let fileLines = normalizedLines(fileText)

        #expect(
            fileLines.first?.hasPrefix(block.header + ".") == true
                || fileLines.first?.hasPrefix(block.header + ":") == true,
            "Samples/\(fileName) does not start with a comment naming \(block.name)"
        )

        let blockImports = Set(blockLines.filter(isImport))
        let fileImports = Set(fileLines.filter(isImport))
        let notInFile = blockImports.subtracting(fileImports).sorted().joined(separator: "; ")
        #expect(notInFile.isEmpty, "Samples/\(fileName) lacks imports that \(block.name) shows: \(notInFile)")
        if !block.takesImportsAsGiven {
            let notInSample = fileImports.subtracting(blockImports).sorted().joined(separator: "; ")
            #expect(notInSample.isEmpty, "Samples/\(fileName) has imports \(block.name) does not show: \(notInSample)")
        }

        let fileCode = fileLines.filter { !isImport($0) }
        let matched = longestContiguousMatch(of: blockCode, in: fileCode)
        if matched < blockCode.count {
            Issue.record(
                """
                Samples/\(fileName) does not hold the code of \(block.name) contiguously and in order: \
                \(matched) of its \(blockCode.count) lines match, then this one is missing:
                \(blockCode[matched])
                """
            )
        }

        // Code under a condition is not compiled everywhere: only the samples importing a trait's module may
        // be, and only under those traits, besides the conditions the sample shows itself.
        let traits = traitOrder.filter { trait in
            fileImports.contains { Self.trait(ofImport: $0) == trait }
        }
        let expectedGuard = traits.isEmpty ? nil : "#if " + traits.joined(separator: " && ")
        let isGuarded = fileCode.dropFirst().first?.hasPrefix("#if ") == true && fileCode.last == "#endif"
        let actualGuard = isGuarded ? fileCode.dropFirst().first : nil
        #expect(
            actualGuard == expectedGuard,
            """
            Samples/\(fileName) is inside \(actualGuard ?? "no condition") but its imports need \
            \(expectedGuard ?? "none")
            """
        )
        let conditions = { (lines: [String]) in lines.filter { $0.hasPrefix("#if") }.count }
        #expect(
            conditions(fileCode) == conditions(blockCode) + (traits.isEmpty ? 0 : 1),
            "Samples/\(fileName) has a compilation condition that \(block.name) does not show"
        )
    }

    /// The Swift files in a folder of `Samples/`.
    static func sampleFiles(in folder: URL) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") })
    }

    @Test func everyDocumentedSampleIsCompiled() throws {
        let programs = try Self.misusePrograms()
        var expectedFiles: Set<String> = []
        var documentNames: Set<String> = []
        for document in Self.documents {
            let name = document.deletingPathExtension().lastPathComponent
            let isNewName = documentNames.insert(name).inserted
            #expect(isNewName, "two documents are named \(name).md, so their sample files would collide")
            let text = try String(contentsOf: document, encoding: .utf8)
            for (index, text) in Self.swiftBlocks(in: text).enumerated() {
                let number = index + 1
                let block = Block(
                    text: text,
                    name: "\(name).md sample \(number)",
                    header: "// \(name).md, sample \(number)",
                    fileName: "\(name)-\(number).swift",
                    takesImportsAsGiven: false
                )
                if !block.isMistake {
                    expectedFiles.insert(block.fileName)
                }
                Self.check(block, misusePrograms: programs)
            }
        }

        for stale in try Self.sampleFiles(in: Self.samplesFolder).subtracting(expectedFiles).sorted() {
            Issue.record("Samples/\(stale) matches no ```swift block of README.md or the DocC articles")
        }
        // README (3), the ten CoreAPI articles (2 + 5 + 4 + 1 + 4 + 2 + 1 + 3 + 3 + 7) and the module pages (0).
        #expect(expectedFiles.count >= 35)
    }

    /// The samples of doc comments are `Samples/DocComments/<File>-<n>.swift` for the n-th block of `<File>.swift`,
    /// checked as the documents' are, except that a sample may import what the block takes as given: the module of
    /// its source file and the modules that one imports.
    @Test func everyDocCommentSampleIsCompiled() throws {
        let programs = try Self.misusePrograms()
        let folder = Self.samplesFolder.appendingPathComponent("DocComments")
        var expectedFiles: Set<String> = []
        var blockCount = 0
        // A sample file's name must differ from every other one in the test target, the documents' samples
        // included: the compiler tells private declarations of files apart by their names.
        var names = Set(Self.documents.map { $0.deletingPathExtension().lastPathComponent })
        for source in Self.sourceFiles {
            let text = try String(contentsOf: source, encoding: .utf8)
            let blocks = Self.docCommentSwiftBlocks(in: text)
            guard !blocks.isEmpty else { continue }
            let name = source.deletingPathExtension().lastPathComponent
            let isNewName = names.insert(name).inserted
            #expect(isNewName, "\(source.path): another source file or document is named \(name)")
            for (index, text) in blocks.enumerated() {
                let number = index + 1
                let block = Block(
                    text: text,
                    name: "\(name).swift sample \(number)",
                    header: "// \(name).swift, sample \(number)",
                    fileName: "DocComments/\(name)-\(number).swift",
                    takesImportsAsGiven: true
                )
                blockCount += 1
                if !block.isMistake {
                    expectedFiles.insert("\(name)-\(number).swift")
                }
                Self.check(block, misusePrograms: programs)
            }
        }

        for stale in try Self.sampleFiles(in: folder).subtracting(expectedFiles).sorted() {
            Issue.record("Samples/DocComments/\(stale) matches no ```swift block of a doc comment in Sources")
        }
        // 71 blocks when every doc comment's sample was first compiled.
        #expect(blockCount >= 71)
    }

    /// The text of a doc comment's block is what DocC shows: the slashes and one space go, the block ends at its
    /// fence or with the comment, and a mistake's mark is seen.
    @Test func docCommentBlocksAreReadAsDocCShowsThem() {
        let source = """
            /// Text.
            ///
            /// ```swift
            /// struct A {
            ///     let b = 1
            /// }
            /// ```
            func a() {}
                /// ```swift
                /// // A mistake, on purpose: a string is not an Int.
                /// let c: Int = "d"
            func e() {}
            """
        let blocks = Self.docCommentSwiftBlocks(in: source)
        #expect(
            blocks.map(Self.normalizedLines) == [
                ["struct A {", "let b = 1", "}"],
                ["// A mistake, on purpose: a string is not an Int.", "let c: Int = \"d\""],
            ]
        )
        let block = { (text: String) in
            Block(text: text, name: "", header: "", fileName: "", takesImportsAsGiven: true)
        }
        #expect(blocks.map { block($0).isMistake } == [false, true])
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
        let withMessages = statusMessagesSample()
        let limited = await #expect(throws: ApiError.self) {
            try await ApiSession(
                hostProvider: withMessages.hostProvider,
                transport: transport,
                defaults: withMessages.defaults
            ).perform(GetProduct(sku: "B-2"))
        }
        #expect(
            limited?.description.hasPrefix("Unacceptable status: Too many attempts. Try again in a minute.") == true
        )
        withMessages.invalidate()
    }

    @Test func aTextMethodOfTheFamilyReadsTheShopsErrorBody() async throws {
        let transport = StubTransport()
        transport.on(.get, "/orders/7/receipt", reply: .text("1 x A-1"))
        transport.on(
            .get,
            "/orders/8/receipt",
            reply: .json(#"{"code": "forbidden", "message": "no"}"#, statusCode: 403)
        )
        transport.on(.get, "/orders/9/receipt", reply: .text("not json", statusCode: 403))
        let session = transport.makeSession(hosts: ["shop": "https://shop.test"])
        #expect(try await session.perform(GetReceipt(order: "7")) == "1 x A-1")
        let error = await #expect(throws: ShopError.self) { try await session.perform(GetReceipt(order: "8")) }
        #expect(error?.code == "forbidden")
        #expect(error?.status == 403)
        // A body the family cannot read leaves the status to CoreAPI.
        let generic = await #expect(throws: ApiError.self) { try await session.perform(GetReceipt(order: "9")) }
        #expect(generic?.statusCode == 403)
    }

    @Test func aCallsOwnOptionsWinOverTheMethods() async throws {
        let transport = StubTransport()
        transport.on(.get, "/products/C-3", reply: .status(404))
        let session = transport.makeSession(hosts: ["shop": "https://shop.test"])
        // The method maps 404 to its own error; a call that accepts 404 gets the empty body's parse error
        // instead, which shows the method's rule was not applied to an accepted status.
        await #expect(throws: ShopError.self) { try await session.perform(GetProduct(sku: "C-3")) }
        let accepted = await #expect(throws: ApiError.self) {
            try await session.perform(GetProduct(sku: "C-3"), options: CallOptions(acceptableStatusCodes: [200, 404]))
        }
        guard case .mapping = accepted else {
            Issue.record("expected a mapping error, got \(String(describing: accepted))")
            return
        }
    }

    /// UsingMiddleware.md's order puts logging after the token refresher: the debug log's cURL carries the
    /// `Authorization` sent, redacted, and a token the server echoes is redacted too. Before the refresher, the
    /// logger saw neither.
    @Test(arguments: [true, false])
    func loggingAfterTheRefresherRedactsTheTokenItSent(loggingLast: Bool) async throws {
        let transport = StubTransport { request in
            .text("token was \(request.headers["Authorization"] ?? "none")")
        }
        let lines = LockedValue<[String]>([])
        let logging = LoggingMiddleware(level: .debug) { record in lines.withLock { $0.append(record.message) } }
        let refresher = TokenRefreshMiddleware(token: "s3cret-t0ken") { _ in "renewed" }
        let session = ApiSession(
            hostProvider: DictionaryHostProvider(["api": "https://api.test"]),
            transport: transport,
            middlewares: loggingLast ? [HeadersMiddleware.defaults, refresher, logging] : [logging, refresher]
        )
        _ = try await session.perform(GetGreeting())
        let log = lines.current.joined(separator: "\n")
        #expect(log.contains("s3cret-t0ken") == !loggingLast)
        #expect(log.contains("-H 'Authorization: <redacted>'") == loggingLast)
    }

    @Test func environmentsSampleSwitchesToStage() throws {
        let (hosts, _) = try environmentsSample()
        #expect(hosts.current == "stage")
        #expect(try hosts.host(for: "api") == "https://stage.example.com")
    }

    @Test func signInSendsTheDocumentedFormBody() throws {
        let session = ApiSession(hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]))
        let request = try session.makeRequest(for: SignIn(email: "ann@example.com", password: "open sesame+1"))
        #expect(
            request.body.data.map { String(decoding: $0, as: UTF8.self) }
                == "email=ann%40example.com&password=open+sesame%2B1"
        )
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func bookingDatesUseTheModelsStrategyInEveryEncoder() throws {
        let booking = Booking(
            room: 7,
            from: Date(timeIntervalSince1970: 1_700_000_000.123),
            to: Date(timeIntervalSince1970: 1_700_086_400)
        )
        let json = try #require(try JSONParametersEncoder(dateEncoding: .iso8601).body(for: booking))
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
