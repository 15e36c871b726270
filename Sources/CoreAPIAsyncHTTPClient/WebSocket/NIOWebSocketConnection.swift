#if AsyncHTTPClient
    import CoreAPI
    import NIOCore
    import NIOWebSocket

    /// A WebSocket connection on a SwiftNIO channel that `AsyncHTTPClientTransport` upgraded.
    struct NIOWebSocketConnection: WebSocket.Connection {
        let channel: any Channel
        let handler: WebSocketFrameHandler
        let maximumMessageSize: Int

        func send(_ message: WebSocket.Message) async throws {
            guard message.size <= maximumMessageSize else {
                throw WebSocket.Failure.messageTooLarge(limit: maximumMessageSize)
            }
            if let closure = handler.closedForSending {
                throw WebSocket.Failure.closed(closure)
            }
            let data = ByteBuffer(bytes: message.data)
            let frame: WebSocketFrame
            switch message {
            case .text: frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: data)
            case .binary: frame = WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: data)
            }
            do {
                try await channel.writeAndFlush(frame)
            } catch {
                throw WebSocket.Failure.connectionLost
            }
        }

        func receive() async throws -> WebSocket.Event {
            let channel = self.channel
            let item = await withTaskCancellationHandler {
                await handler.next {
                    channel.eventLoop.execute {
                        channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in channel.read() }
                    }
                }
            } onCancel: { [handler] in
                // The close frame goes out at once, as ``close(_:)`` sends it, so the server learns why.
                if handler.markClosing(WebSocket.Closure(code: .goingAway)) {
                    channel.writeAndFlush(WebSocketFrameHandler.closeFrame(.goingAway, reason: ""), promise: nil)
                    WebSocketFrameHandler.cut(channel, after: handler.closeTimeout)
                }
                handler.interruptReader()
            }
            switch item {
            case .message(let message): return .message(message)
            case .closed(let closure): return .closed(closure)
            case .failed(let error): throw error
            }
        }

        func ping() async throws {
            // A reader that fell behind paused the socket reads: the pong may be queued behind messages
            // the server is still sending, which already show it is alive.
            if handler.isReadingPaused { return }
            var payload = ByteBuffer()
            payload.writeInteger(UInt64.random(in: .min ... .max))
            let frame = WebSocketFrame(fin: true, opcode: .ping, maskKey: .random(), data: payload)
            let channel = self.channel
            // A failed write closes the channel, which ends the wait.
            guard await handler.awaitPong(afterSending: { channel.writeAndFlush(frame, promise: nil) }) else {
                throw WebSocket.Failure.connectionLost
            }
        }

        func close(_ closure: WebSocket.Closure) async {
            if handler.markClosing(closure) {
                let code = closure.code.isSendable ? closure.code : .normalClosure
                try? await channel.writeAndFlush(WebSocketFrameHandler.closeFrame(code, reason: closure.reason))
            }
            // The server answers with its close frame, and the handler then ends the connection; one
            // that does not answer is cut off.
            WebSocketFrameHandler.cut(channel, after: handler.closeTimeout)
            await handler.awaitEnd()
        }

        func abort(_ closure: WebSocket.Closure) {
            // The close frame is flushed before the channel closes (both run on its event loop, in this
            // order); closing it ends the reader's and the pings' waits as lost.
            if handler.markClosing(closure) {
                let code = closure.code.isSendable ? closure.code : .normalClosure
                channel.writeAndFlush(WebSocketFrameHandler.closeFrame(code, reason: closure.reason), promise: nil)
            }
            channel.close(promise: nil)
        }
    }
#endif
