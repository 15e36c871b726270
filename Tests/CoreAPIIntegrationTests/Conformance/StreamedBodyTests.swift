import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

/// A streamed body, echoed back, to `path` with `query` in the query.
private struct PutStream: FixtureMethod {
    typealias Response = Echo
    @Excluded var payload: RequestBody
    @Excluded var path: String
    @Excluded var tag: String
    var to: String?
    var status: Int?
    var httpMethod: HTTPMethod { .put }
    var body: RequestBody? { payload }

    init(_ payload: RequestBody, path: String = "/echo/stream", tag: String = "", redirectTo to: String? = nil) {
        self.payload = payload
        self.path = path
        self.tag = tag
        self.to = to
        self.status = to == nil ? nil : 307
    }
}

/// The error a body's sequence throws in these tests.
private struct ProducerFailure: Error {}

/// A stream of `chunks`, counting how many sequences were made; throws `ProducerFailure` after
/// `failingAfter` chunks when it is set.
private func chunkStream(
    _ chunks: [Data],
    length: Int64?,
    made: LockedList<Int>? = nil,
    failingAfter: Int? = nil
) -> RequestBody {
    .stream(length: length, contentType: "text/plain") {
        made?.append(1)
        return AsyncThrowingStream<Data, any Error> { continuation in
            for (index, chunk) in chunks.enumerated() {
                if index == failingAfter {
                    continuation.finish(throwing: ProducerFailure())
                    return
                }
                continuation.yield(chunk)
            }
            continuation.finish()
        }
    }
}

/// Bodies produced by an async sequence while they are sent, over every transport.
extension SerialLoopback {
    @Suite(.timeLimit(.minutes(1)))
    struct StreamedBodyTests {
        let server: FixtureServer
        /// Three chunks, 150,003 bytes in all: more than one chunk of any engine's buffers.
        let chunks = [
            Data(repeating: UInt8(ascii: "a"), count: 70_000),
            Data("-middle-".utf8),
            Data(repeating: UInt8(ascii: "z"), count: 79_995),
        ]
        var bytes: Data { chunks.reduce(Data(), +) }

        init() throws {
            server = try FixtureServer.shared()
        }

        @Test(arguments: TestTransport.underTest)
        func aStreamOfKnownLengthArrivesWholeWithItsContentLength(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let echo = try await session.perform(PutStream(chunkStream(chunks, length: Int64(bytes.count))))
            #expect(echo.bodySize == bytes.count)
            #expect(echo.body == String(decoding: bytes, as: UTF8.self))
            #expect(echo.headers["content-length"] == String(bytes.count))
            #expect(echo.headers["transfer-encoding"] == nil)
            #expect(echo.headers["content-type"] == "text/plain")
        }

        @Test(arguments: TestTransport.underTest)
        func aStreamOfUnknownLengthArrivesChunkedOrFromAFile(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let echo = try await session.perform(PutStream(chunkStream(chunks, length: nil)))
            #expect(echo.bodySize == bytes.count)
            #expect(echo.body == String(decoding: bytes, as: UTF8.self))
            if transport.uploadsStreamsFromFiles {
                #expect(echo.headers["content-length"] == String(bytes.count))
                #expect(echo.headers["transfer-encoding"] == nil)
            } else {
                #expect(echo.headers["content-length"] == nil)
                #expect(echo.headers["transfer-encoding"] == "chunked")
            }
        }

        @Test(arguments: TestTransport.underTest, [Int64?.none, 150_003])
        func a307RedirectSendsTheWholeStreamAgain(transport: TestTransport, length: Int64?) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let made = LockedList<Int>()
            let echo = try await session.perform(
                PutStream(
                    chunkStream(chunks, length: length, made: made),
                    path: "/redirect",
                    redirectTo: "/echo/after-307"
                )
            )
            #expect(echo.path == "/echo/after-307")
            #expect(echo.method == "PUT")
            #expect(echo.bodySize == bytes.count)
            #expect(echo.body == String(decoding: bytes, as: UTF8.self))
            #expect(made.values.count == 2)
        }

        @Test(arguments: TestTransport.underTest)
        func aThrowingStreamEndsTheCallTypedAndNoRequestCompletes(transport: TestTransport) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let tag = uniqueName("throwing-stream")
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(
                    PutStream(chunkStream(chunks, length: nil, failingAfter: 2), tag: tag)
                )
            }
            guard case .invalidRequest(.bodyStreamFailed(let failure))? = error else {
                Issue.record("expected bodyStreamFailed, got \(String(describing: error))")
                return
            }
            #expect(failure.cause is ProducerFailure)
            #expect(try await session.perform(ArrivalCount(tag: tag)).count == 0)
        }

        @Test(
            arguments: TestTransport.underTest,
            [(declared: 150_100, produced: 150_003), (declared: 70_004, produced: 70_008)]
        )
        func aLengthThatDoesNotMatchTheBytesFailsTyped(
            transport: TestTransport,
            lengths: (declared: Int64, produced: Int64)
        ) async throws {
            let session = transport.makeSession(hostProvider: server.hosts)
            let tag = uniqueName("length-mismatch")
            await #expect(
                throws: ApiError.invalidRequest(
                    .bodyLengthMismatch(declared: lengths.declared, produced: lengths.produced)
                )
            ) {
                try await session.perform(PutStream(chunkStream(chunks, length: lengths.declared), tag: tag))
            }
            #expect(try await session.perform(ArrivalCount(tag: tag)).count == 0)
        }
    }
}
