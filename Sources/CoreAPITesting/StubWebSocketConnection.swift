import CoreAPI

/// The client's side of a ``StubTransport/WebSocketPeer``, as the engine of a ``StubTransport`` gives it.
struct StubWebSocketConnection: WebSocket.Connection {
    let peer: StubTransport.WebSocketPeer
    let options: WebSocket.Options

    func send(_ message: WebSocket.Message) async throws {
        guard message.size <= options.maximumMessageSize else {
            throw WebSocket.Failure.messageTooLarge(limit: options.maximumMessageSize)
        }
        guard peer.receive(message) else {
            throw WebSocket.Failure.closed(peer.clientClosure ?? WebSocket.Closure(code: .abnormalClosure))
        }
    }

    func receive() async throws -> WebSocket.Event {
        let item = await withTaskCancellationHandler {
            await peer.nextOutgoing()
        } onCancel: {
            peer.clientClosed(WebSocket.Closure(code: .goingAway))
        }
        switch item {
        case .message(let message):
            guard message.size <= options.maximumMessageSize else {
                // As an engine does: the message is refused and the connection closed with 1009.
                peer.clientClosed(WebSocket.Closure(code: .messageTooBig))
                throw WebSocket.Failure.messageTooLarge(limit: options.maximumMessageSize)
            }
            return .message(message)
        case .close(let closure):
            return .closed(closure)
        case .drop:
            throw WebSocket.Failure.connectionLost
        }
    }

    func ping() async throws {
        guard await peer.ping() else {
            throw WebSocket.Failure.closed(peer.clientClosure ?? WebSocket.Closure(code: .abnormalClosure))
        }
    }

    func close(_ closure: WebSocket.Closure) async {
        peer.clientClosed(closure)
    }

    func abort(_ closure: WebSocket.Closure) {
        peer.clientAborted(closure)
    }
}
