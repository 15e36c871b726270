import CoreAPI

/// The client's side of a ``StubWebSocketPeer``, as the engine of a ``StubTransport`` gives it.
struct StubWebSocketConnection: WebSocketConnection {
    let peer: StubWebSocketPeer
    let options: WebSocketOptions

    func send(_ message: WebSocketMessage) async throws {
        guard message.size <= options.maximumMessageSize else {
            throw WebSocketError.messageTooLarge(limit: options.maximumMessageSize)
        }
        guard peer.receive(message) else {
            throw WebSocketError.closed(peer.clientClosure ?? WebSocketClosure(code: .abnormalClosure))
        }
    }

    func receive() async throws -> WebSocketEvent {
        let item = await withTaskCancellationHandler {
            await peer.nextOutgoing()
        } onCancel: {
            peer.clientClosed(WebSocketClosure(code: .goingAway))
        }
        switch item {
        case .message(let message):
            guard message.size <= options.maximumMessageSize else {
                // As an engine does: the message is refused and the connection closed with 1009.
                peer.clientClosed(WebSocketClosure(code: .messageTooBig))
                throw WebSocketError.messageTooLarge(limit: options.maximumMessageSize)
            }
            return .message(message)
        case .close(let closure):
            return .closed(closure)
        case .drop:
            throw WebSocketError.connectionLost
        }
    }

    func ping() async throws {
        guard await peer.ping() else {
            throw WebSocketError.closed(peer.clientClosure ?? WebSocketClosure(code: .abnormalClosure))
        }
    }

    func close(_ closure: WebSocketClosure) async {
        peer.clientClosed(closure)
    }
}
