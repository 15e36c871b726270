import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Upload: ApiMethod {
    typealias Response = Data
    let file: CoreAPI.Attachment
    var temporaryDirectory: URL
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding {
        MultipartFormDataEncoder(streamingThreshold: 1024, temporaryDirectory: temporaryDirectory)
    }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/files")
    }

    private enum CodingKeys: String, CodingKey { case file }
}

/// A large multipart body is written to its temporary file when the transport sends it, for each
/// attempt, and the write stops when the call is cancelled.
@Suite(.timeLimit(.minutes(1)))
struct PendingBodyFileTests {
    private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pending-\(UUID().uuidString)")

    private func makeFile(size: Int) throws -> URL {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let url = scratch.appendingPathComponent("source.bin")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(size))  // sparse: cheap to make, read at memory speed
        try handle.close()
        return url
    }

    @Test func aMockThatAnswersNeverPaysForTheFile() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let source = try makeFile(size: 8 * 1024 * 1024)
        let mock = MockMiddleware()
        mock.on(Upload.self, reply: .status(201))
        let session = StubTransport().makeSession(hosts: ["api": "https://api.test"], middlewares: [mock])
        // A directory that does not exist: writing the body file there would fail the call.
        let nowhere = scratch.appendingPathComponent("missing", isDirectory: true)
        _ = try await session.perform(Upload(file: CoreAPI.Attachment(fileURL: source), temporaryDirectory: nowhere))
        #expect(mock.requests.count == 1)
        #expect(!FileManager.default.fileExists(atPath: nowhere.path))
    }

    @Test func eachAttemptSendsAFileOfItsOwnAndEveryFileIsRemoved() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let source = try makeFile(size: 256 * 1024)
        let bodies = scratch.appendingPathComponent("bodies", isDirectory: true)
        try FileManager.default.createDirectory(at: bodies, withIntermediateDirectories: true)
        let attempts = LockedValue(0)
        let transport = StubTransport { request in
            let attempt = attempts.withLock { count in
                count += 1
                return count
            }
            return attempt == 1 ? .status(503) : .status(200)
        }
        let session = transport.makeSession(
            hosts: ["api": "https://api.test"],
            middlewares: [
                RetryMiddleware(
                    policy: RetryPolicy(
                        backoff: RetryPolicy.Backoff(initialDelay: .milliseconds(10), jitter: .none),
                        retryableMethods: [.post]
                    )
                )
            ]
        )
        _ = try await session.perform(Upload(file: CoreAPI.Attachment(fileURL: source), temporaryDirectory: bodies))
        let bodiesSent = transport.requests.compactMap(\.body)
        #expect(bodiesSent.count == 2)
        #expect(bodiesSent[0] == bodiesSent[1])
        #expect(bodiesSent[0].count > 256 * 1024)
        #expect(transport.requests.allSatisfy { $0.headers["Content-Length"] == String(bodiesSent[0].count) })
        #expect(try FileManager.default.contentsOfDirectory(atPath: bodies.path).isEmpty)
    }

    @Test func cancelAllRequestsStopsTheWrite() async throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let source = try makeFile(size: 8 * 1024 * 1024 * 1024)
        let bodies = scratch.appendingPathComponent("bodies", isDirectory: true)
        try FileManager.default.createDirectory(at: bodies, withIntermediateDirectories: true)
        let transport = StubTransport()
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let upload = Task {
            try await session.perform(Upload(file: CoreAPI.Attachment(fileURL: source), temporaryDirectory: bodies))
        }
        try await waitUntil { (try? FileManager.default.contentsOfDirectory(atPath: bodies.path))?.isEmpty == false }
        let start = ContinuousClock.now
        session.cancelAllRequests()
        await #expect(throws: ApiError.cancelled) { try await upload.value }
        // Not the whole 8 GiB write, which takes seconds on a fast disk: this bound is tighter than
        // `promptly`, whose 15 s could not tell the two apart.
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(transport.requests.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bodies.path).isEmpty)
    }
}
