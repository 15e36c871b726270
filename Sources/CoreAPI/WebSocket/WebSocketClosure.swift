/// How a WebSocket connection ended: the close code and reason of the close frame, or
/// ``WebSocketCloseCode/abnormalClosure`` when the connection ended without one.
public struct WebSocketClosure: Sendable, Hashable {
    /// The close code.
    public var code: WebSocketCloseCode
    /// The reason the closing side gave; empty when it gave none.
    public var reason: String

    /// A closure.
    public init(code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }
}
