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
        #expect(error?.category == "invalidRequest")
        #expect(transport.requests.isEmpty)
    }
}
