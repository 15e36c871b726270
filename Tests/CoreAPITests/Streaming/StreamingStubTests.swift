import CoreAPI
import CoreAPITesting
import Foundation
import Testing

private struct Feed: ApiMethod {
    typealias Response = Data
    var path = "/feed"
    var hostProviderKey: String { "api" }
    var middlewares: [any Middleware] = []
    var options: CallOptions { CallOptions(middlewares: middlewares) }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }

    func encode(to encoder: any Encoder) throws {}
}

/// Streams and downloads without a network: through ``StubTransport``, which hands a body over in
/// pieces, and through a mock middleware, whose body the session hands over itself.
@Suite(.timeLimit(.minutes(1)))
struct StreamingStubTests {
    let transport = StubTransport()
    let body = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    /// The stub hands the body over in pieces of ``StubTransport/chunkSize``, which arrive in order.
    @Test func aStubbedBodyArrivesInPieces() async throws {
        transport.on("/feed", reply: .data(body))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let response = try await session.stream(Feed())
        var pieces: [Data] = []
        for try await piece in response.body {
            pieces.append(piece)
        }
        #expect(pieces.map(\.count) == [16_384, 16_384, 16_384, 16_384, 16_384, 16_384, 1_696])
        #expect(Data(pieces.joined()) == body)
        #expect(session.callsInFlight.isEmpty)
    }

    /// A mock answers without the transport: the session hands its collected body over, so a stream or
    /// a download behaves the same in a sandbox.
    @Test func aMockedBodyIsHandedOverByTheSession() async throws {
        let mock = MockMiddleware()
        mock.on(Feed.self, reply: .data(Data("line 1\nline 2\r\nline 3".utf8)))
        let session = transport.makeSession(hosts: ["api": "https://api.test"], middlewares: [mock])
        var lines: [String] = []
        for try await line in try await session.stream(Feed()).lines {
            lines.append(line)
        }
        #expect(lines == ["line 1", "line 2", "line 3"])
        let file = try await session.download(Feed())
        defer { try? FileManager.default.removeItem(at: file.location) }
        #expect(try Data(contentsOf: file.location) == Data("line 1\nline 2\r\nline 3".utf8))
        #expect(transport.requests.isEmpty)
    }

    /// A download through the stub lands in a temporary file the caller owns, with its size.
    @Test func aDownloadLandsInATemporaryFile() async throws {
        transport.on("/feed", reply: .data(body))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let file = try await session.download(Feed())
        defer { try? FileManager.default.removeItem(at: file.location) }
        #expect(file.location.path.hasPrefix(FileManager.default.temporaryDirectory.path))
        #expect(file.size == 100_000)
        #expect(try Data(contentsOf: file.location) == body)
        #expect(!FileManager.default.fileExists(atPath: file.location.path + ".partial"))
    }

    /// A status the method does not accept fails as `perform` fails, and the stream never starts.
    @Test func aStatusErrorFailsTheStream() async throws {
        transport.on("/feed", reply: .json("{\"error\": 1}", statusCode: 500))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        await #expect {
            _ = try await session.stream(Feed())
        } throws: { error in
            guard case .unacceptableStatus(let failure) = error as? ApiError else { return false }
            return failure.statusCode == 500 && failure.body == Data("{\"error\": 1}".utf8)
        }
    }
}
