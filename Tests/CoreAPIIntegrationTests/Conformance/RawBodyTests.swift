import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A raw body with query parameters, echoed back.
private struct PutRaw: FixtureMethod {
    typealias Response = Echo
    @Excluded var payload: RequestBody
    var version = 2
    var path: String { "/echo/raw-body" }
    var httpMethod: HTTPMethod { .put }
    var body: RequestBody? { payload }
}

/// Bytes and files sent as they are, over every transport.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(1)))
    struct RawBodyTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        @Test(arguments: TestTransport.underTest)
        func bytesAreSentAsTheyAreWithTheirTypeAndTheParametersInTheQuery(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let echo = try await session.perform(
                PutRaw(payload: .data(Data("<a>é</a>".utf8), contentType: "application/xml"))
            )
            #expect(echo.method == "PUT")
            #expect(echo.query == "version=2")
            #expect(echo.body == "<a>é</a>")
            #expect(echo.headers["content-type"] == "application/xml")
        }

        @Test(arguments: TestTransport.underTest)
        func aFileIsStreamedAndLeftInPlace(transport: TestTransport) async throws {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID()).csv")
            let text = (0..<20_000).map { "row \($0),\($0 * 7)" }.joined(separator: "\n")
            try Data(text.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let session = transport.makeSession(hostProvider: server.hosts)
            let echo = try await session.perform(PutRaw(payload: .file(file, contentType: "text/csv")))
            #expect(echo.bodySize == text.utf8.count)
            #expect(echo.body == text)
            #expect(echo.headers["content-type"] == "text/csv")
            #expect(echo.headers["content-length"] == String(text.utf8.count))
            #expect(FileManager.default.fileExists(atPath: file.path))
        }

        @Test(arguments: TestTransport.underTest)
        func aMissingFileFailsBeforeAnythingIsSent(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let missing = URL(fileURLWithPath: "/nonexistent/\(UUID()).bin")
            await #expect(throws: ApiError.invalidRequest(.unreadableFile(path: missing.path))) {
                try await session.perform(PutRaw(payload: .file(missing)))
            }
        }
    }
}
