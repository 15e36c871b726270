import CoreAPI
import CoreAPIJSON
import Foundation
import Testing

/// ``JSONLines`` over bodies in memory, split at every byte so no record arrives whole.
struct JSONLinesTests {
    struct Item: Decodable, Sendable, Equatable {
        let id: Int
    }

    private static func body(_ text: String) -> StreamedResponse.Body {
        StreamedResponse.Body(pieces: Data(text.utf8).map { Data([$0]) })
    }

    private static func decode(_ lines: JSONLines<Item>) async throws -> [Item] {
        var items: [Item] = []
        for try await item in lines {
            items.append(item)
        }
        return items
    }

    @Test(arguments: [
        ("{\"id\":1}\n{\"id\":2}\n", [1, 2]),
        ("{\"id\":1}\r\n{\"id\":2}", [1, 2]),  // CRLF, and no end after the last record
        ("{\"id\":1}\n\n  \n{\"id\":2}\n", [1, 2]),  // blank lines skipped
        ("", []),
    ])
    func decodesRecords(text: String, ids: [Int]) async throws {
        #expect(try await Self.decode(JSONLines(Self.body(text))) == ids.map(Item.init))
    }

    /// RFC 7464: each text starts with a record separator.
    @Test func decodesJSONTextSequences() async throws {
        let text = "\u{1E}{\"id\":1}\n\u{1E}{\"id\":2}\n"
        #expect(
            try await Self.decode(JSONLines(Self.body(text), separator: .recordSeparator)) == [
                Item(id: 1), Item(id: 2),
            ]
        )
    }

    /// The broken line's number counts blank lines; the records before it were delivered.
    @Test func aBrokenLineThrowsItsNumber() async throws {
        var iterator = JSONLines<Item>(Self.body("{\"id\":1}\n\n{\"id\":\n{\"id\":4}\n")).makeAsyncIterator()
        #expect(try await iterator.next() == Item(id: 1))
        await #expect {
            _ = try await iterator.next()
        } throws: { error in
            guard let failure = error as? JSONLines<Item>.RecordFailure else { return false }
            return failure.record == 3 && failure.text == "{\"id\":" && failure.underlying is DecodingError
        }
    }
}
