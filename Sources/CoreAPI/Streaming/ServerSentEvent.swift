/// One event of a `text/event-stream` body (server-sent events), as the HTML standard's parsing rules
/// dispatch it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the `event` field, `message` when the event has none.
    public var event: String
    /// The `data` fields, joined with line feeds.
    public var data: String
    /// The last event ID at this event: its own `id` field or the latest before it; `nil` when none
    /// was set (or it was set empty). Reconnecting sends it as `Last-Event-ID`.
    public var id: String?
    /// The reconnection time the stream last asked for with a `retry` field, in milliseconds.
    public var retry: Int?

    /// Creates an event.
    public init(event: String = "message", data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
