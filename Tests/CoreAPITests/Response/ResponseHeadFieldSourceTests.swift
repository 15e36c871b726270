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

    private static let url = URL(string: "https://api.test/items")!

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
