package import Foundation

/// Turns the bytes of a `text/event-stream` body into events, piece by piece, by the HTML standard's
/// rules: a leading byte-order mark is skipped; lines end at LF, CR or CRLF; a line starting with `:` is
/// a comment; `field: value` loses one space after the colon; `data` lines are joined with line feeds;
/// an `id` holding NUL is ignored; `retry` is taken only when it is all digits; a blank line dispatches
/// the event, unless it has no data; an event not ended by a blank line when the body ends is dropped.
package struct ServerSentEventParser: Sendable {
    private var lines = LineSplitter()
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    private var isAtStart = true
    /// The first bytes, while they may still be a byte-order mark.
    private var startBytes: [UInt8] = []

    /// The `id` field seen last, taken as the last event ID at the next blank line.
    private var idBuffer: String?
    /// The last event ID as of the last blank line, which persists from event to event; `nil` when none
    /// (or an empty one). A reconnection sends it as `Last-Event-ID`.
    package private(set) var lastEventID: String?
    /// The reconnection time the stream asked for last, in milliseconds.
    package private(set) var retry: Int?

    /// Creates a parser; `lastEventID` is the ID a reconnection started from, if any.
    package init(lastEventID: String? = nil) {
        self.lastEventID = lastEventID
        self.idBuffer = lastEventID
    }

    /// Takes the next piece of the body; returns the events it completes, in order.
    package mutating func append(_ piece: Data) -> [ServerSentEvents.Event] {
        var piece = piece
        if isAtStart {
            // A byte-order mark may arrive split over pieces: its bytes are held until it is told apart.
            startBytes.append(contentsOf: piece)
            let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
            if startBytes.count < mark.count, mark.starts(with: startBytes) {
                return []
            }
            isAtStart = false
            piece = Data(startBytes.starts(with: mark) ? startBytes.dropFirst(mark.count) : startBytes[...])
            startBytes = []
        }
        var complete: [[UInt8]] = []
        lines.append(piece) { complete.append($0) }
        return complete.compactMap { take($0) }
    }

    /// Processes one line; returns the event a blank line dispatches.
    private mutating func take(_ line: [UInt8]) -> ServerSentEvents.Event? {
        if line.isEmpty {
            lastEventID = idBuffer
            defer {
                data.removeAll(keepingCapacity: true)
                hasData = false
                eventType = ""
            }
            guard hasData else { return nil }
            return ServerSentEvents.Event(
                event: eventType.isEmpty ? "message" : eventType,
                data: String(decoding: data, as: UTF8.self),
                id: lastEventID,
                retry: retry
            )
        }
        if line.first == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = line[..<(colon ?? line.endIndex)]
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") {
            value = value.dropFirst()
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(UInt8(ascii: "\n")) }
            data.append(contentsOf: value)
            hasData = true
        case "id" where !value.contains(0):
            idBuffer = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
        case "retry" where !value.isEmpty && value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }):
            retry = Int(String(decoding: value, as: UTF8.self))
        default:
            break
        }
        return nil
    }
}
