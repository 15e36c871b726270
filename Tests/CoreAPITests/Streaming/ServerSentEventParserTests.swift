import CoreAPI
import Foundation
import Testing

/// ``ServerSentEventParser`` against the HTML standard's parsing rules, one case per rule, each fed in
/// one piece and byte by byte.
struct ServerSentEventParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let input: String
        let events: [ServerSentEvents.Event]
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "one event", input: "data: hello\n\n", events: [ServerSentEvents.Event(data: "hello")]),
        Case(
            label: "data lines joined with LF",
            input: "data: a\ndata: b\n\n",
            events: [ServerSentEvents.Event(data: "a\nb")]
        ),
        Case(
            label: "event type and id",
            input: "event: tick\nid: 7\ndata: x\n\n",
            events: [ServerSentEvents.Event(event: "tick", data: "x", id: "7")]
        ),
        Case(
            label: "the id persists and an event type does not",
            input: "event: a\nid: 1\ndata: x\n\ndata: y\n\n",
            events: [
                ServerSentEvents.Event(event: "a", data: "x", id: "1"), ServerSentEvents.Event(data: "y", id: "1"),
            ]
        ),
        Case(
            label: "an empty id resets it",
            input: "id: 1\ndata: x\n\nid\ndata: y\n\n",
            events: [ServerSentEvents.Event(data: "x", id: "1"), ServerSentEvents.Event(data: "y", id: nil)]
        ),
        Case(
            label: "an id with NUL is ignored",
            input: "id: 1\ndata: x\n\nid: 2\u{0}3\ndata: y\n\n",
            events: [ServerSentEvents.Event(data: "x", id: "1"), ServerSentEvents.Event(data: "y", id: "1")]
        ),
        Case(label: "comments are skipped", input: ": ping\ndata: x\n\n", events: [ServerSentEvents.Event(data: "x")]),
        Case(label: "no data, no event", input: "event: a\n\n", events: []),
        Case(label: "an empty data line is an event", input: "data\n\n", events: [ServerSentEvents.Event(data: "")]),
        Case(
            label: "only one space is dropped",
            input: "data:  two\n\n",
            events: [ServerSentEvents.Event(data: " two")]
        ),
        Case(label: "no space after the colon", input: "data:x\n\n", events: [ServerSentEvents.Event(data: "x")]),
        Case(
            label: "CR and CRLF end lines",
            input: "data: a\r\ndata: b\rdata: c\n\r\n",
            events: [ServerSentEvents.Event(data: "a\nb\nc")]
        ),
        Case(
            label: "retry is taken when all digits",
            input: "retry: 1500\ndata: x\n\nretry: 2s\ndata: y\n\n",
            events: [ServerSentEvents.Event(data: "x", retry: 1500), ServerSentEvents.Event(data: "y", retry: 1500)]
        ),
        Case(
            label: "unknown fields are ignored",
            input: "foo: bar\ndata: x\n\n",
            events: [ServerSentEvents.Event(data: "x")]
        ),
        Case(
            label: "a byte-order mark is skipped",
            input: "\u{FEFF}data: x\n\n",
            events: [ServerSentEvents.Event(data: "x")]
        ),
        Case(
            label: "an unfinished event is not dispatched",
            input: "data: x\n\ndata: y\n",
            events: [ServerSentEvents.Event(data: "x")]
        ),
    ]

    @Test(arguments: cases)
    func parsesInOnePiece(_ example: Case) {
        var parser = ServerSentEventParser()
        #expect(parser.append(Data(example.input.utf8)) == example.events)
    }

    @Test(arguments: cases)
    func parsesByteByByte(_ example: Case) {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvents.Event] = []
        for byte in Data(example.input.utf8) {
            events += parser.append(Data([byte]))
        }
        #expect(events == example.events)
    }

    /// The last event ID counts from the blank line that dispatches, and a parser made for a reconnection
    /// starts from the given one.
    @Test func theLastEventIDIsTakenAtTheBlankLine() {
        var parser = ServerSentEventParser(lastEventID: "41")
        #expect(parser.lastEventID == "41")
        _ = parser.append(Data("id: 42\ndata: x\n".utf8))
        #expect(parser.lastEventID == "41")
        _ = parser.append(Data("\n".utf8))
        #expect(parser.lastEventID == "42")
        #expect(parser.append(Data("data: y\n\n".utf8)) == [ServerSentEvents.Event(data: "y", id: "42")])
    }
}
