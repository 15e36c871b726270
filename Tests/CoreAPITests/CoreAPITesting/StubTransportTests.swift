import CoreAPI
import CoreAPITesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Get: ApiMethod {
    typealias Response = Data
    var path: String
    var timeout: Duration?
    var maximumResponseSize: Int64?
    var hostProviderKey: String { "api" }
    var options: CallOptions { CallOptions(timeout: timeout, maximumResponseSize: maximumResponseSize) }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: path)
    }

    func encode(to encoder: any Encoder) throws {}
}

private struct Upload: ApiMethod {
    typealias Response = Data
    let file: CoreAPI.Attachment
    let note: String
    var hostProviderKey: String { "api" }
    var httpMethod: HTTPMethod { .put }
    var parametersEncoding: any ParametersEncoding { MultipartFormDataEncoder(streamingThreshold: 1024 * 1024) }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .components(host: try hostProvider.host(for: hostProviderKey), path: "/files")
    }
}

/// ``StubTransport``: what it records, how it answers, and that it holds replies to the options.
@Suite(.timeLimit(.minutes(1)))
struct StubTransportTests {
    let transport = StubTransport()

    @Test func aMultipartBodyStreamedFromItsTemporaryFileArrivesByteForByte() async throws {
        let size = 20 * 1024 * 1024
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices {
            bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 11)
        }
        let content = Data(bytes)
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("stub-\(UUID().uuidString).bin")
        try content.write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        transport.on(.put, "/files", reply: .status(201))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])

        _ = try await session.perform(
            Upload(
                file: CoreAPI.Attachment(fileURL: source, filename: "big.bin", mimeType: "application/octet-stream"),
                note: "n"
            )
        )

        let request = try #require(transport.requests.first)
        let contentType = try #require(request.headers["Content-Type"])
        let boundary = try #require(contentType.split(separator: "=", maxSplits: 1).last.map(String.init))
        var expected = Data()
        expected.append(Data("--\(boundary)\r\n".utf8))
        expected.append(Data(#"Content-Disposition: form-data; name="file"; filename="big.bin""#.utf8))
        expected.append(Data("\r\nContent-Type: application/octet-stream\r\n\r\n".utf8))
        expected.append(content)
        expected.append(Data("\r\n--\(boundary)\r\n".utf8))
        expected.append(Data("Content-Disposition: form-data; name=\"note\"\r\n\r\nn\r\n--\(boundary)--\r\n".utf8))
        let body = try #require(request.body)
        #expect(body.count == expected.count)
        #expect(body == expected)
        #expect(request.headers["Content-Length"] == String(expected.count))
    }

    @Test func everyRequestIsRecordedTheFallbackIncluded() async throws {
        transport.on(.get, "/known", reply: .text("yes"))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        #expect(try await session.perform(Get(path: "/known")) == Data("yes".utf8))
        await #expect(
            throws: ApiError.unacceptableStatus(.init(statusCode: 404, url: URL(string: "https://api.test/unknown")))
        ) {
            try await session.perform(Get(path: "/unknown"))
        }
        #expect(transport.requests.map(\.url.path) == ["/known", "/unknown"])
    }

    @Test func aClosureAnswersEveryRequest() async throws {
        let transport = StubTransport { request in .text("echo \(request.url.path)") }
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        #expect(try await session.perform(Get(path: "/a/b")) == Data("echo /a/b".utf8))
    }

    @Test(arguments: [
        (
            reply: CannedResponse.failure(.transport(.init(kind: .offline))),
            error: ApiError.transport(.init(kind: .offline, code: -1009))
        ),
        (reply: CannedResponse.failure(.timeout), error: ApiError.timeout),
        (
            reply: CannedResponse.text(String(repeating: "x", count: 100)),
            error: ApiError.responseTooLarge(limit: 10)
        ),
        (reply: CannedResponse.text("late").delayed(by: .seconds(30)), error: ApiError.timeout),
    ])
    func repliesAreHeldToTheOptions(reply: CannedResponse, error: ApiError) async throws {
        transport.on("/x", reply: reply)
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let start = ContinuousClock.now
        await #expect(throws: error) {
            try await session.perform(Get(path: "/x", timeout: .seconds(0.2), maximumResponseSize: 10))
        }
        #expect(ContinuousClock.now - start < promptly)  // the 0.2 s timeout, not the 30 s delay
    }

    @Test func cancellingDuringADelayEndsTheCallAtOnce() async throws {
        transport.on("/slow", reply: CannedResponse.text("late").delayed(by: .seconds(30)))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let call = Task { try await session.perform(Get(path: "/slow")) }
        try await Task.sleep(for: .milliseconds(100))
        let start = ContinuousClock.now
        session.cancelAllRequests()
        await #expect(throws: ApiError.cancelled) { try await call.value }
        #expect(ContinuousClock.now - start < promptly)  // not the 30 s delay
    }

    @Test(arguments: [99, 1000, -1])
    func aStatusOutsideTheHTTPRangeIsATypedErrorNotATrap(status: Int) async throws {
        transport.on("/odd", reply: .status(status))
        let session = transport.makeSession(hosts: ["api": "https://api.test"])
        let error = await #expect(throws: ApiError.self) { try await session.perform(Get(path: "/odd")) }
        #expect(error?.category == .other)
    }
}
