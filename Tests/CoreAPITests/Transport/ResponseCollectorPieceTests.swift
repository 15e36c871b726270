import CoreAPI
import Foundation
import Synchronization
import Testing

/// The step an engine takes for each body piece: what the collector keeps or hands on, the caller's code the
/// piece owes, and the error for a connection that ends early.
struct ResponseCollectorPieceTests {
    private static let url = URL(string: "https://api.test/x")!

    private final class Log: Sendable {
        let pieces = Mutex<[String]>([])
        let progress = Mutex<[Int64]>([])
    }

    private func collector(limit: Int64 = 1_000, log: Log, streams: Bool) -> ResponseCollector {
        let handler = TransportOptions.BodyHandler(
            accepts: { _ in streams },
            receive: { piece in log.pieces.withLock { $0.append(String(decoding: piece, as: UTF8.self)) } }
        )
        return ResponseCollector(
            method: .get,
            options: TransportOptions(
                maximumResponseSize: limit,
                progress: { value in log.progress.withLock { $0.append(value.completedBytes) } },
                bodyHandler: handler
            ),
            decodedCodings: ["identity"]
        )
    }

    private func head(_ status: Int, _ fields: [String: String] = [:]) -> ResponseHead {
        ResponseHead(status: HTTPStatus(status), headers: Headers(fields), url: Self.url)
    }

    /// A collected body is kept, and each piece reports progress only when it is delivered.
    @Test func aCollectedPieceIsKeptAndReportsProgressOnDelivery() throws {
        let log = Log()
        var collector = collector(log: log, streams: false)
        _ = try collector.receive(head(200))
        let first = try collector.take(Data("abc".utf8))
        let second = try collector.take(Data("de".utf8))
        #expect(log.progress.withLock { $0 }.isEmpty)
        try first.deliver()
        try second.deliver()
        #expect(first.step == .more && second.step == .more)
        #expect(log.progress.withLock { $0 } == [3, 5])
        #expect(log.pieces.withLock { $0 }.isEmpty)
        #expect(try collector.finish().data == Data("abcde".utf8))
    }

    /// A streamed body goes to the handler on delivery, in order, and is not kept.
    @Test func aStreamedPieceGoesToTheHandlerOnDelivery() throws {
        let log = Log()
        var collector = collector(log: log, streams: true)
        _ = try collector.receive(head(200))
        let first = try collector.take(Data("abc".utf8))
        #expect(log.pieces.withLock { $0 }.isEmpty)
        try first.deliver()
        try collector.take(Data("de".utf8)).deliver()
        #expect(log.pieces.withLock { $0 } == ["abc", "de"])
        #expect(log.progress.withLock { $0 } == [3, 5])
        #expect(try collector.finish().data.isEmpty)
    }

    /// A handler's error reaches the engine as an ``ApiError`` from `deliver`.
    @Test func aHandlerErrorComesOutOfDelivery() throws {
        struct Refused: Error {}
        var collector = ResponseCollector(
            method: .get,
            options: TransportOptions(bodyHandler: .init(accepts: { _ in true }, receive: { _ in throw Refused() })),
            decodedCodings: ["identity"]
        )
        _ = try collector.receive(head(200))
        let piece = try collector.take(Data("x".utf8))
        #expect(throws: ApiError.self) { try piece.deliver() }
    }

    /// A redirect's body stops the engine once its kept bytes are in; a body over the limit is refused.
    @Test func aPieceSaysWhenToStop() throws {
        let log = Log()
        var redirect = collector(log: log, streams: true)
        _ = try redirect.receive(head(302, ["Location": "/y"]))
        let big = Data(repeating: 0x61, count: 70_000)
        #expect(try redirect.take(big).step == .complete)
        #expect(log.pieces.withLock { $0 }.isEmpty)

        var limited = collector(limit: 4, log: log, streams: false)
        _ = try limited.receive(head(200))
        #expect(throws: ApiError.responseTooLarge(limit: 4)) { try limited.take(Data("abcde".utf8)) }
    }

    /// The error for an engine's fault: `connectionLost` once the head is in, the given kind before it, an
    /// `ApiError` itself.
    @Test func anEarlyEndIsNamedByWhetherTheHeadArrived() throws {
        struct Fault: Error {}
        var collector = collector(log: Log(), streams: false)
        #expect(collector.failure(endedBy: Fault()).transportKind == .other)
        #expect(collector.failure(endedBy: Fault(), beforeHead: .cannotConnect).transportKind == .cannotConnect)
        _ = try collector.receive(head(200))
        #expect(collector.failure(endedBy: Fault(), beforeHead: .cannotConnect).transportKind == .connectionLost)
        #expect(collector.failure(endedBy: ApiError.timeout) == .timeout)
    }
}

extension ApiError {
    fileprivate var transportKind: TransportFailure.Kind? {
        if case .transport(let failure) = self { return failure.kind }
        return nil
    }
}
