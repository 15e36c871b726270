import CoreAPI
import Foundation
import Testing

/// The rules every engine applies to a response, without a network: what the collector says about a head,
/// and what it keeps of a body.
struct ResponseCollectorTests {
    private static let url = URL(string: "https://api.test/x")!

    private func collector(
        _ method: HTTPMethod = .get,
        limit: Int64 = 1_000,
        handler: TransportOptions.BodyHandler? = nil
    ) -> ResponseCollector {
        ResponseCollector(
            method: method,
            options: TransportOptions(maximumResponseSize: limit, bodyHandler: handler),
            decodedCodings: ["identity", "gzip"]
        )
    }

    private func head(_ status: HTTPStatus, _ fields: Headers = Headers()) -> ResponseHead {
        ResponseHead(status: status, headers: fields, url: Self.url)
    }

    /// Heads the collector refuses before any body byte is read, and the error each gets.
    @Test(arguments: [
        (200, ["Content-Length": "10, 5"], ApiError.transport(.init(kind: .badResponse))),
        (200, ["Content-Length": "ten"], ApiError.transport(.init(kind: .badResponse))),
        (200, ["Content-Encoding": "br"], ApiError.transport(.init(kind: .badResponse))),
        (200, ["Content-Length": "1001"], ApiError.responseTooLarge(limit: 1_000)),
    ])
    func aHeadThatCannotBeReadSafelyIsRefused(status: Int, fields: [String: String], error: ApiError) {
        var collector = collector()
        #expect(throws: error) { try collector.receive(head(HTTPStatus(status), Headers(fields))) }
    }

    /// A head without a body to read is not held to its length or coding.
    @Test(arguments: [
        (HTTPMethod.head, 200),
        (HTTPMethod.get, 204),
        (HTTPMethod.get, 304),
    ])
    func aResponseWithoutABodyIsNotCheckedForOne(method: HTTPMethod, status: Int) throws {
        var collector = collector(method)
        let fields: Headers = ["Content-Length": "5000", "Content-Encoding": "br"]
        guard case .collect = try collector.receive(head(HTTPStatus(status), fields)) else {
            Issue.record("expected the body to be collected")
            return
        }
        #expect(!collector.hasBody)
        #expect(collector.contentEncoding == nil)
    }

    @Test func aCompressedBodyIsHeldToTheLimitOnDecodedBytes() throws {
        var collector = collector()
        // 5,000 encoded bytes say nothing of the decoded size: the head passes.
        _ = try collector.receive(head(200, ["Content-Length": "5000", "Content-Encoding": "gzip"]))
        #expect(collector.contentEncoding == "gzip")
        #expect(try collector.append(Data(count: 600)) == .more)
        #expect(throws: ApiError.responseTooLarge(limit: 1_000)) { try collector.append(Data(count: 401)) }
    }

    @Test func aRedirectKeepsTheStartOfItsBodyOutsideTheLimit() throws {
        var collector = collector(limit: 1 << 20)
        _ = try collector.receive(head(302, ["Location": "/next", "Content-Length": "200000"]))
        #expect(try collector.append(Data(count: 60_000)) == .more)
        #expect(try collector.append(Data(count: 60_000)) == .complete)
        let raw = try collector.finish()
        #expect(raw.data.count == ApiError.StatusFailure.maximumBodySize)
        #expect(raw.statusCode == 302)
    }

    @Test func aRedirectWithoutLocationIsAnAnswerHeldToTheLimit() throws {
        var collector = collector()
        _ = try collector.receive(head(302))
        #expect(throws: ApiError.responseTooLarge(limit: 1_000)) { try collector.append(Data(count: 1_001)) }
    }

    @Test func anInformationalHeadIsSkipped() throws {
        var collector = collector()
        guard case .skip = try collector.receive(head(103, ["Link": "</style.css>; rel=preload"])) else {
            Issue.record("expected a 103 to be skipped")
            return
        }
        _ = try collector.receive(head(200))
        #expect(try collector.append(Data("ok".utf8)) == .more)
        #expect(try collector.finish().data == Data("ok".utf8))
    }

    /// A handler takes the body it accepts, never a redirect's; it is not held to the size limit.
    @Test(arguments: [(200, true), (404, false), (307, false)])
    func theHandlerGetsOnlyTheBodiesItAccepts(status: Int, streams: Bool) throws {
        let handler = TransportOptions.BodyHandler(
            accepts: { $0.statusCode == 200 || $0.statusCode == 307 },
            receive: { _ in }
        )
        var collector = collector(handler: handler)
        let fields: Headers = status == 307 ? ["Location": "/next"] : ["Content-Length": "500"]
        switch try collector.receive(head(HTTPStatus(status), fields)) {
        case .stream: #expect(streams)
        case .collect: #expect(!streams)
        case .skip: Issue.record("nothing to skip")
        }
    }

    @Test func progressCountsDecodedBytesOfTheDeclaredLength() throws {
        var collector = collector()
        _ = try collector.receive(head(200, ["Content-Length": "10"]))
        _ = try collector.append(Data(count: 4))
        #expect(collector.progress == TransferProgress(direction: .download, completedBytes: 4, totalBytes: 10))
        collector.streamed(8)
        // Decoded bytes may pass an encoded length: the total is never below what arrived.
        #expect(collector.progress == TransferProgress(direction: .download, completedBytes: 12, totalBytes: 12))
    }

    @Test func noHeadIsABadResponse() {
        #expect(throws: ApiError.transport(.init(kind: .badResponse))) { try collector().finish() }
    }
}
