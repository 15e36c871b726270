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
            switch frame.opcode {
            case .text:
                deliver(.message(.text(String(buffer: frame.unmaskedData))), context: context)
            case .binary:
                deliver(.message(.binary(Data(frame.unmaskedData.readableBytesView))), context: context)
            case .ping:
                let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
                context.writeAndFlush(Self.wrapOutboundOut(pong), promise: nil)
            case .pong:
                let waiters = state.withLock { state in
                    defer { state.pongWaiters = [] }
                    return state.pongWaiters
                }
                waiters.forEach { $0.resume(returning: true) }
            case .connectionClose:
                var payload = frame.unmaskedData
                let code =
                    payload.readInteger(as: UInt16.self).map(WebSocketCloseCode.init(rawValue:)) ?? .noStatusReceived
                let closure = WebSocketClosure(
                    code: code,
                    reason: payload.readString(length: payload.readableBytes) ?? ""
                )
                let answered = state.withLock { state -> Bool in
                    defer { state.sentClose = state.sentClose ?? closure }
                    return state.sentClose != nil
                }
                // First the reader's end: closing the channel below ends it as lost otherwise.
                finish(.closed(closure))
                if answered {
                    context.close(promise: nil)
                } else {
                    // RFC 6455 §5.5.1: answer with a close frame, then end the connection.
                    let echo = Self.closeFrame(closure.code.isSendable ? closure.code : .normalClosure, reason: "")
                    context.writeAndFlush(Self.wrapOutboundOut(echo)).assumeIsolated().whenComplete { _ in
                        context.close(promise: nil)
                    }
                }
            default:
                break
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            finish(.failed(.connectionLost))
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            let failure: WebSocketError
            switch error {
            case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge,
                NIOWebSocketError.invalidFrameLength:
                failure = .messageTooLarge(limit: maximumMessageSize)
                if state.withLock({ $0.sentClose == nil }) {
                    state.withLock { $0.sentClose = WebSocketClosure(code: .messageTooBig) }
                    context.writeAndFlush(
                        Self.wrapOutboundOut(Self.closeFrame(.messageTooBig, reason: "")),
                        promise: nil
                    )
                }
            default:
                failure = .protocolError(reason: "\(error)")
                if state.withLock({ $0.sentClose == nil }) {
                    state.withLock { $0.sentClose = WebSocketClosure(code: .protocolError) }
                    context.writeAndFlush(
                        Self.wrapOutboundOut(Self.closeFrame(.protocolError, reason: "")),
                        promise: nil
                    )
                }
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
