import CoreAPI
import Foundation
import Synchronization
import Testing

/// A head made from an engine's own fields (``ResponseHead/FieldSource``): lookups ask the source, the
/// fields are copied out only when `headers` is read, and setting them replaces the source.
@Suite struct ResponseHeadFieldSourceTests {
    /// How often a source's fields were copied out.
    final class Copies: Sendable {
        let count = Mutex(0)
    }

    /// An engine's fields as name-value pairs, counting how often they are copied out.
    struct PairSource: ResponseHead.FieldSource {
        let pairs: [(String, String)]
        let copies = Copies()

        var headers: Headers {
            copies.count.withLock { $0 += 1 }
            return Headers(pairs.map { Headers.Field(name: $0.0, value: $0.1) })
        }

        func value(of name: String) -> String? {
            let values = pairs.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
    }

    /// The names a source was asked for, in order.
    final class Asked: Sendable {
        let names = Mutex<[String]>([])
    }

    /// A source that answers only one name at a time, recording the names it was asked for: the default
    /// `values(of:)` is what CoreAPI's checks call.
    struct AskedSource: ResponseHead.FieldSource {
        let fields: [String: String]
        let asked = Asked()

        var headers: Headers { Headers(fields.map { Headers.Field(name: $0.key, value: $0.value) }) }

        func value(of name: String) -> String? {
            asked.names.withLock { $0.append(name) }
            return fields[name]
        }
    }

    private static let url = URL(string: "https://api.test/items")!

    @Test(arguments: [
        // A redirect status asks for its Location too; any other status leaves it out.
        (301, ["Content-Length", "Content-Encoding", "Location"], true),
        (308, ["Content-Length", "Content-Encoding", "Location"], true),
        (200, ["Content-Length", "Content-Encoding"], false),
        (304, ["Content-Length", "Content-Encoding"], false),
    ])
    func theDefaultLookupAsksForEachNameTheChecksNeed(status: Int, asked: [String], isRedirect: Bool) {
        let source = AskedSource(fields: ["Content-Length": "3", "Content-Encoding": "gzip", "Location": "/next"])
        let checks = HeadChecks(ResponseHead(status: HTTPStatus(status), fieldSource: source, url: Self.url))
        #expect(source.asked.names.withLock { $0 } == asked)
        #expect(checks.contentLength == "3")
        #expect(checks.contentEncoding == "gzip")
        #expect(checks.isRedirect == isRedirect)
    }

    @Test func theDefaultLookupSkipsAnEmptyName() {
        let source = AskedSource(fields: ["A": "1", "B": "2"])
        let values = source.values(of: ("B", "", "A"))
        #expect(values.0 == "2")
        #expect(values.1 == nil)
        #expect(values.2 == "1")
        #expect(source.asked.names.withLock { $0 } == ["B", "A"])
    }

    @Test func checksLookUpTheSourceWithoutCopyingTheFields() {
        let source = PairSource(pairs: [("content-length", "10"), ("Content-Length", "5"), ("X-A", "1")])
        let head = ResponseHead(status: .ok, fieldSource: source, url: Self.url)
        let checks = HeadChecks(head)
        #expect(checks.contentLength == "10, 5")
        #expect(checks.hasInvalidContentLength)
        #expect(source.copies.count.withLock { $0 } == 0)
    }

    @Test func headersAreCopiedFromTheSourceInOrderWhenRead() {
        let source = PairSource(pairs: [("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"), ("ETag", "\"x\"")])
        let head = ResponseHead(status: .ok, fieldSource: source, url: Self.url)
        #expect(head.headers.fields.map(\.value) == ["a=1", "b=2", "\"x\""])
        #expect(head.headers.values(for: "set-cookie") == ["a=1", "b=2"])
        #expect(source.copies.count.withLock { $0 } == 2)
        #expect(head == ResponseHead(status: .ok, headers: head.headers, url: Self.url))
    }

    @Test func settingTheHeadersReplacesTheSource() {
        let source = PairSource(pairs: [("Content-Encoding", "gzip")])
        var head = ResponseHead(status: .ok, fieldSource: source, url: Self.url)
        let copy = head
        head.headers = ["Content-Type": "text/plain"]
        #expect(HeadChecks(head).contentEncoding == nil)
        #expect(head.headers["content-type"] == "text/plain")
        #expect(HeadChecks(copy).contentEncoding == "gzip")
    }
}
