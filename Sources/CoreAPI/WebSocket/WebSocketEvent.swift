/// What a ``WebSocket``'s ``WebSocket/events`` deliver, in order.
public enum WebSocketEvent: Sendable, Hashable {
    /// A message from the server.
    case message(WebSocketMessage)
    /// The connection was lost and opened again (``WebSocketOptions/reconnection``); messages the
    /// server sent in between were not received, and messages sent while it was down failed.
    /// `attempt` counts the attempts since the last message arrived, from 1.
    case reconnected(attempt: Int)
    /// The connection closed with this code and reason; the last event.
    case closed(WebSocketClosure)
}
