#if AsyncHTTPClient
    import CoreAPI
    import Foundation
    import NIOCore
    import NIOWebSocket

    /// The last handler of an upgraded channel: answers pings, completes the client's pings with their
    /// pongs, answers and records a close frame, and hands whole messages (NIO's aggregator joins the
    /// fragments before it) to the connection's reader through a queue.
    ///
    /// The queue holds at most ``highWaterMark`` messages: past it the channel stops reading from the
    /// socket until the reader catches up, so a reader that falls behind holds back the server instead
    /// of filling memory. Every method runs on the channel's event loop; the connection reaches the
    /// state through the lock.
    final class WebSocketFrameHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        /// The most messages queued for a reader before the channel stops reading.
        static let highWaterMark = 64

        /// What the reader gets next.
        enum Item: Sendable {
            case message(WebSocketMessage)
            case closed(WebSocketClosure)
            case failed(WebSocketError)
        }

        private struct State {
            var items: [Item] = []
            var reader: CheckedContinuation<Item, Never>?
            var pongWaiters: [CheckedContinuation<Bool, Never>] = []
            /// The close frame the client sent, once it did.
            var sentClose: WebSocketClosure?
            /// How the connection ended, once it did: the last item, given again at every read.
            var end: Item?
            var isReadingPaused = false
        }

        private let state = LockedValue(State())
        private let maximumMessageSize: Int

        init(maximumMessageSize: Int) {
            self.maximumMessageSize = maximumMessageSize
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = Self.unwrapInboundIn(data)
            // RFC 6455 §5.1-5.2: a server never masks, and no extension was agreed that sets RSV bits.
            guard frame.maskKey == nil, !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
                fail(
                    .protocolError(reason: "a masked frame or one with reserved bits set"),
                    code: .protocolError,
                    context
                )
                return
            }
            switch frame.opcode {
            case .text:
                // §8.1: text that is not UTF-8 fails the connection (1007), never repaired.
                guard let text = Self.validUTF8(frame.data.readableBytesView) else {
                    fail(.protocolError(reason: "a text message that is not UTF-8"), code: .invalidPayload, context)
                    return
                }
                deliver(.message(.text(text)), context: context)
            case .binary:
                deliver(.message(.binary(Data(frame.data.readableBytesView))), context: context)
            case .ping:
                let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.data)
                context.writeAndFlush(Self.wrapOutboundOut(pong), promise: nil)
            case .pong:
                let waiters = state.withLock { state in
                    defer { state.pongWaiters = [] }
                    return state.pongWaiters
                }
                waiters.forEach { $0.resume(returning: true) }
            case .connectionClose:
                receivedClose(frame.data, context: context)
            default:
                fail(.protocolError(reason: "a frame of a reserved opcode"), code: .protocolError, context)
            }
        }

        /// Answers the server's close frame (§5.5.1) and ends the connection with its code and reason.
        /// The bytes as text when they are well-formed UTF-8, else `nil`: decoding repairs ill-formed
        /// sequences with U+FFFD, so the text is valid exactly when its UTF-8 is the bytes it came from.
        /// (`String(validating:as:)` says the same, but only from iOS 18 and macOS 15, above the package's floor.)
        static func validUTF8(_ bytes: ByteBufferView) -> String? {
            let text = String(decoding: bytes, as: UTF8.self)
            return text.utf8.elementsEqual(bytes) ? text : nil
        }

        private func receivedClose(_ data: ByteBuffer, context: ChannelHandlerContext) {
            var payload = data
            let code = payload.readInteger(as: UInt16.self).map(WebSocketCloseCode.init(rawValue:)) ?? .noStatusReceived
            let reason = Self.validUTF8(payload.readableBytesView)
            guard data.readableBytes != 1, code == .noStatusReceived || code.isSendable, let reason else {
                fail(.protocolError(reason: "a malformed close frame"), code: .protocolError, context)
                return
            }
            let closure = WebSocketClosure(code: code, reason: reason)
            let answers = markClosing(closure)
            // First the reader's end: closing the channel below ends it as lost otherwise.
            finish(.closed(closure))
            guard answers else {
                context.close(promise: nil)
                return
            }
            let echo = Self.closeFrame(code.isSendable ? code : .normalClosure, reason: "")
            context.writeAndFlush(Self.wrapOutboundOut(echo)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            finish(.failed(.connectionLost))
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            switch error {
            case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge,
                NIOWebSocketError.invalidFrameLength:
                fail(.messageTooLarge(limit: maximumMessageSize), code: .messageTooBig, context)
            case is NIOWebSocketFrameAggregator.Error, is NIOWebSocketError:
                fail(.protocolError(reason: "\(error)"), code: .protocolError, context)
            default:
                // The socket or TLS failed (a reset, an unclean shutdown): the connection is lost, and
                // no close frame can go out on it.
                finish(.failed(.connectionLost))
                context.close(promise: nil)
            }
        }

        /// Fails the connection: a close frame with `code` when none was sent, `failure` for the
        /// reader, and the end of the channel.
        private func fail(_ failure: WebSocketError, code: WebSocketCloseCode, _ context: ChannelHandlerContext) {
            if markClosing(WebSocketClosure(code: code)) {
                context.writeAndFlush(Self.wrapOutboundOut(Self.closeFrame(code, reason: "")), promise: nil)
            }
            finish(.failed(failure))
            context.close(promise: nil)
        }

        /// A masked close frame.
        static func closeFrame(_ code: WebSocketCloseCode, reason: String) -> WebSocketFrame {
            var data = ByteBuffer()
            data.writeInteger(code.rawValue)
            data.writeString(String(decoding: reason.utf8.prefix(123), as: UTF8.self))
            return WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
        }

        // MARK: The connection's side

        /// The next item for the reader; after the end, the end again. Reading resumes when the queue
        /// has room again.
        func next(resumeReading: @escaping @Sendable () -> Void) async -> Item {
            await withCheckedContinuation { continuation in
                let (ready, resume) = state.withLock { state -> (Item?, Bool) in
                    if !state.items.isEmpty {
                        let item = state.items.removeFirst()
                        let resume = state.isReadingPaused && state.items.count < Self.highWaterMark / 2
                        if resume { state.isReadingPaused = false }
                        return (item, resume)
                    }
                    if let end = state.end { return (end, false) }
                    state.reader = continuation
                    return (nil, false)
                }
                if resume { resumeReading() }
                if let ready { continuation.resume(returning: ready) }
            }
        }

        /// Runs `send`, which sends a ping, and waits for a pong: `true` when one came, `false` when the
        /// connection ended first. The wait is registered before the ping goes out.
        func awaitPong(afterSending send: @escaping @Sendable () -> Void) async -> Bool {
            await withCheckedContinuation { continuation in
                let ended = state.withLock { state -> Bool in
                    if state.end != nil { return true }
                    state.pongWaiters.append(continuation)
                    return false
                }
                if ended {
                    continuation.resume(returning: false)
                } else {
                    send()
                }
            }
        }

        /// Ends the wait of a reader whose task was cancelled.
        func interruptReader() {
            let reader = state.withLock { $0.reader.take() }
            reader?.resume(returning: .failed(.connectionLost))
        }

        /// Records the client's close frame; `false` when one was sent or the connection ended.
        func markClosing(_ closure: WebSocketClosure) -> Bool {
            state.withLock { state in
                guard state.sentClose == nil, state.end == nil else { return false }
                state.sentClose = closure
                return true
            }
        }

        /// The close frame the client sent, once it did.
        var sentClose: WebSocketClosure? {
            state.withLock { $0.sentClose }
        }

        /// Whether the channel stopped reading because the reader fell behind: the server is sending,
        /// so it is alive, and a ping's pong may wait behind the queued messages.
        var isReadingPaused: Bool {
            state.withLock { $0.isReadingPaused }
        }

        /// Whether the connection has ended.
        var hasEnded: Bool {
            state.withLock { $0.end != nil }
        }

        /// Queues `item` for the reader, or hands it over; pauses reading at the high-water mark.
        private func deliver(_ item: Item, context: ChannelHandlerContext) {
            let (reader, pause) = state.withLock { state -> (CheckedContinuation<Item, Never>?, Bool) in
                guard state.end == nil else { return (nil, false) }
                if let reader = state.reader.take() { return (reader, false) }
                state.items.append(item)
                let pause = !state.isReadingPaused && state.items.count >= Self.highWaterMark
                if pause { state.isReadingPaused = true }
                return (nil, pause)
            }
            reader?.resume(returning: item)
            if pause {
                context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            }
        }

        /// Ends the connection with `item`, delivered after what is queued; the first end wins.
        private func finish(_ item: Item) {
            let (reader, waiters) = state.withLock {
                state -> (CheckedContinuation<Item, Never>?, [CheckedContinuation<Bool, Never>]) in
                guard state.end == nil else { return (nil, []) }
                state.end = item
                defer { state.pongWaiters = [] }
                return (state.items.isEmpty ? state.reader.take() : nil, state.pongWaiters)
            }
            reader?.resume(returning: item)
            waiters.forEach { $0.resume(returning: false) }
        }
    }
#endif
