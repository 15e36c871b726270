import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `POST /upload?name=&how=` with a multipart body of a text field and a file.
private struct CutMultipartUpload: ApiMethod {
    typealias Response = CheckedBody
    @Excluded var url: String
    @Excluded var encoder: MultipartFormDataEncoder
    var title: String
    var document: CoreAPI.Attachment
    var hostProviderKey: String { "reset" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { encoder }

    func urlInfo(from hostProvider: any HostProvider) throws -> URLInfo {
        .url(try #require(URL(string: url)))
    }
}

/// Adds the length and SHA-256 of each exchange's body to its query, as the fixture's `/upload` checks
/// them: taken from the body as the transport gets it, the temporary file of a multipart body included.
private struct BodyDigestInQuery: Middleware {
    /// A body of a kind the test does not send: a stream, or a URL no query can be added to.
    struct Unexpected: Error {}

    func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        try await context.withEachExchange(
            { request, send in
                var request = request
                let length: Int64
                let digest: String
                switch request.body {
                case .data(let data):
                    (length, digest) = (Int64(data.count), try Digest.sha256(of: data))
                case .file(let file):
                    (length, digest) = (file.length, try Digest.sha256(of: file.url))
                case .none:
                    return try await send(request)
                case .stream:
                    throw Unexpected()
                }
                let query = "&length=\(length)&sha256=\(digest)"
                guard let url = URL(string: request.url.absoluteString + query) else { throw Unexpected() }
                request.url = url
                return try await send(request)
            },
            perform: { try await next(request) }
        )
    }
}

/// An upload whose kept-alive connection is cut in the middle of its body, as a server does when it
/// closes an idle connection just as the client reuses it, over every transport: the body reaches the
/// server whole, or the call fails typed — never a body sent again from its middle, never a wait for the
/// rest of a body until a timeout.
///
/// libcurl sends such a request again on a new connection; FoundationNetworking rewinds only a body
/// stream, so before CoreAPI sent every body as one (`RewindableBody`), the second request went out with
/// the body from where the first stopped, and the fixture refused it at its first byte, or, when the
/// first attempt had read the whole body, waited 30 s for one that never came.
@Suite(.timeLimit(.minutes(1)))
struct ReusedConnectionResetTests {
    /// The bodies, as each reaches the transport.
    enum BodyKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `RequestBody.data`: in memory.
        case inMemory
        /// `RequestBody.file`: the caller's file.
        case file
        /// A multipart body below the encoder's streaming threshold: in memory.
        case multipartInMemory
        /// A multipart body above it: a temporary file written for the attempt.
        case multipartFromATemporaryFile

        var testDescription: String { rawValue }
    }

    /// A body and how its connection is cut.
    struct Case: Sendable, CustomTestStringConvertible {
        let kind: BodyKind
        let cut: ResetFixtureServer.Cut

        var testDescription: String { "\(kind.rawValue), \(cut.rawValue)" }

        static let all = BodyKind.allCases.flatMap { kind in
            ResetFixtureServer.Cut.allCases.map { Case(kind: kind, cut: $0) }
        }
    }

    /// The body's length (a multipart body's attachment's): well past the 64 KiB the server takes before
    /// it cuts the connection, and more than libcurl reads ahead of what it has sent.
    static let length = 1_000_003

    /// Bytes that tell their own offset apart (byte `i` is `i % 251`).
    static let pattern = Data((0..<length).map { UInt8($0 % 251) })

    @Test(arguments: TestTransport.underTest, Case.all)
    func aBodyCutOnAReusedConnectionArrivesWholeOrFailsTyped(transport: TestTransport, scenario: Case) async throws {
        let (kind, cut) = (scenario.kind, scenario.cut)
        let server = try ResetFixtureServer()
        defer { server.stop() }
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let session = transport.makeSession(hostProvider: server.hosts, middlewares: [BodyDigestInQuery()])
        // The upload goes out on the connection this request leaves open: the server cuts it there.
        _ = try await session.perform(Warm())
        let name = uniqueName("cut-\(kind.rawValue)")
        let started = ContinuousClock.now
        let outcome: Result<CheckedBody, any Error>
        do {
            outcome = .success(
                try await upload(kind, name: name, cut: cut, server: server, scratch: scratch, session: session)
            )
        } catch {
            outcome = .failure(error)
        }
        let took = ContinuousClock.now - started
        let log = try server.log(name: name)

        // Ended before the server stops waiting for a body that does not come (30 s).
        #expect(took < .seconds(25), "\(took), the server saw \(log)")
        // The upload was cut on the reused connection; every body after it arrived whole, from its first
        // byte: none from its middle ("mismatch"), none short ("partial"), none wrong ("corrupt").
        #expect(log.first?.outcome == (cut == .reset ? "reset" : "closed"), "the server saw \(log)")
        #expect(log.dropFirst().allSatisfy { $0.outcome == "whole" }, "the server saw \(log)")
        switch outcome {
        case .success(let checked):
            #expect(checked.outcome == "whole")
            #expect(log.last?.outcome == "whole", "the server saw \(log)")
            if kind == .inMemory || kind == .file {
                #expect(checked.length == Self.length)
            }
        case .failure(let error):
            // A connection closed once the whole body was sent, before any response: an engine that sends
            // such a request again must send it whole.
            #expect(
                !(cut == .close && transport.sendsAgainWhenAReusedConnectionCloses),
                "\(error), the server saw \(log)"
            )
            guard case .transport(let failure) = error as? ApiError else {
                Issue.record("expected a transport failure, got \(error); the server saw \(log)")
                return
            }
            #expect(failure.kind == .connectionLost, "\(failure), the server saw \(log)")
        }
    }

    /// Sends the body of `kind` under `name`, cut as `cut` says.
    private func upload(
        _ kind: BodyKind,
        name: String,
        cut: ResetFixtureServer.Cut,
        server: ResetFixtureServer,
        scratch: ScratchDirectory,
        session: ApiSession
    ) async throws -> CheckedBody {
        let file = scratch.url.appendingPathComponent("body.bin")
        try Self.pattern.write(to: file)
        switch kind {
        case .inMemory:
            return try await session.perform(CutUpload(payload: .data(Self.pattern), name: name, how: cut.rawValue))
        case .file:
            return try await session.perform(CutUpload(payload: .file(file), name: name, how: cut.rawValue))
        case .multipartInMemory, .multipartFromATemporaryFile:
            let threshold: Int64 = kind == .multipartInMemory ? 10 * 1024 * 1024 : 64 * 1024
            return try await session.perform(
                CutMultipartUpload(
                    url: "\(server.baseURL)/upload?name=\(name)&how=\(cut.rawValue)",
                    encoder: MultipartFormDataEncoder(streamingThreshold: threshold, temporaryDirectory: scratch.url),
                    title: "cut",
                    document: CoreAPI.Attachment(fileURL: file)
                )
            )
        }
    }
}
