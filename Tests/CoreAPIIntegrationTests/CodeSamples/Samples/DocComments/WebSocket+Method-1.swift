// WebSocket+Method.swift, sample 1.
import CoreAPI

private enum Sample {
    struct ChatSocket: WebSocket.Method {
        @Excluded var room: String
        var hostProviderKey: String { "chat" }
        var path: String { "/rooms/\(room)/socket" }
    }
}
