import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Upload: ApiMethod {
    typealias Response = Data
    @Excluded var payload: RequestBody
    @Excluded var httpMethod: HTTPMethod = .post
    @Excluded var headers: Headers = Headers()
    var name = "a b"
    var hostProviderKey: String { "api" }
    var path: String { "/upload" }
    var body: RequestBody? { payload }
}

@Suite(.timeLimit(.minutes(1)))
struct RequestBodyTests {
    let transport = StubTransport(fallback: .status(200))
    var session: ApiSession { transport.makeSession(hosts: ["api": "https://api.test"]) }

    @Test func bytesGoAsTheyAreAndParametersGoInTheQuery() async throws {
        _ = try await session.perform(Upload(payload: .data(Data([0, 1, 2, 255]))))
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "https://api.test/upload?name=a%20b")
        #expect(request.body == Data([0, 1, 2, 255]))
        #expect(request.headers["Content-Type"] == "application/octet-stream")
    }

    @Test func aMethodsOwnContentTypeWins() async throws {
        _ = try await session.perform(
            Upload(payload: .data(Data("x".utf8), contentType: "text/plain"), headers: ["Content-Type": "text/x-own"])
        )
        #expect(transport.requests.first?.headers["Content-Type"] == "text/x-own")
    }

    @Test func aFileIsSentByteForByteAndKept() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("body-\(UUID()).bin")
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await session.perform(Upload(payload: .file(file, contentType: "image/png")))
        let request = try #require(transport.requests.first)
        #expect(request.body == bytes)
        #expect(request.headers["Content-Type"] == "image/png")
        #expect(request.headers["Content-Length"] == "300000")
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test(arguments: [
        URL(fileURLWithPath: "/nonexistent/body.bin"), FileManager.default.temporaryDirectory,
    ])
    func anUnreadableFileIsATypedErrorAndNothingIsSent(file: URL) async throws {
        await #expect(throws: ApiError.invalidRequest(.unreadableFile(path: file.path))) {
            try await session.perform(Upload(payload: .file(file)))
        }
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: [HTTPMethod.get, .head])
    func aGetOrHeadCannotCarryABody(method: HTTPMethod) async throws {
        let error = await #expect(throws: ApiError.self) {
            try await session.perform(Upload(payload: .data(Data("x".utf8)), httpMethod: method))
        }
        #expect(error?.category == .other)
        #expect(transport.requests.isEmpty)
    }

    /// A stream of `chunks` as a body.
    private static func stream(_ chunks: [String], length: Int64?) -> RequestBody {
        .stream(length: length, contentType: "text/plain") {
            AsyncStream { continuation in
                for chunk in chunks { continuation.yield(Data(chunk.utf8)) }
                continuation.finish()
            }
        }
    }

    @Test(arguments: [Int64?.none, 11])
    func aStreamIsRecordedWithItsBytesAndItsKnownLength(length: Int64?) async throws {
        _ = try await session.perform(Upload(payload: Self.stream(["hello", "", " world"], length: length)))
        let request = try #require(transport.requests.first)
        #expect(request.body == Data("hello world".utf8))
        #expect(request.headers["Content-Type"] == "text/plain")
        #expect(request.headers["Content-Length"] == length.map { String($0) })
    }

    @Test func aStreamIsIteratedAfreshEachTime() async throws {
        let request = try session.makeRequest(for: Upload(payload: Self.stream(["ab", "c"], length: 3)))
        let stream = try #require(request.body.stream)
        for _ in 0..<2 {
            var collected = Data()
            for try await chunk in stream { collected.append(chunk) }
            #expect(collected == Data("abc".utf8))
        }
    }

    @Test func streamsAreEqualOnlyWhenTheyAreTheSameValue() throws {
        let make: @Sendable () -> AsyncStream<Data> = { AsyncStream { $0.finish() } }
        let stream = ApiRequest.Stream(length: 0, makeChunks: make)
        let copy = stream
        #expect(ApiRequest.Body.stream(stream) == .stream(copy))
        #expect(ApiRequest.Body.stream(stream) != .stream(ApiRequest.Stream(length: 0, makeChunks: make)))
    }

    @Test(arguments: [
        (declared: Int64(12), produced: Int64(11)), (declared: 10, produced: 11), (declared: 5, produced: 11),
    ])
    func aLengthThatDoesNotMatchTheBytesFailsTyped(lengths: (declared: Int64, produced: Int64)) async throws {
        await #expect(
            throws: ApiError.invalidRequest(.bodyLengthMismatch(declared: lengths.declared, produced: lengths.produced))
        ) {
            try await session.perform(Upload(payload: Self.stream(["hello", " world"], length: lengths.declared)))
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func cURLAndLogsShowAPlaceholderForAStream() throws {
        let request = try session.makeRequest(for: Upload(payload: Self.stream(["secret"], length: 6)))
        let curl = CurlCommand(request).description
        #expect(curl.hasSuffix("--data-binary @- # streamed body, 6 bytes"))
        #expect(!curl.contains("secret"))
        #expect(
            ApiError.invalidRequest(.bodyLengthMismatch(declared: 6, produced: 7)).description
                == "Invalid request: the streamed body produced 7 bytes, not the 6 bytes declared"
        )
    }
}
