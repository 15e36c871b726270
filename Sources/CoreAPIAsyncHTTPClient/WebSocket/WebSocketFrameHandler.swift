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
    ///
    /// The closing handshake (RFC 6455 §7.1.5): once the client has sent its close frame — its own
    /// close, or a message over the size limit — the connection stays open for the server's, whose code
    /// and reason the reader gets last; ``closeTimeout`` after the client's frame the connection is cut,
    /// and the reader learns it was lost. A protocol error or text that is not UTF-8 fails the connection
    /// at once (§7.1.7), since the frames after it cannot be trusted.
    final class WebSocketFrameHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        /// The most messages queued for a reader before the channel stops reading.
        static let highWaterMark = 64

        /// What the reader gets next.
        enum Item: Sendable {
            case message(WebSocket.Message)
            case closed(WebSocket.Closure)
            case failed(WebSocket.Failure)
        }

        private struct State {
            var messages: [WebSocket.Message] = []
            var reader: CheckedContinuation<Item, Never>?
            var pongWaiters: [CheckedContinuation<Bool, Never>] = []
            /// Those waiting for the end of the channel.
            var endWaiters: [CheckedContinuation<Void, Never>] = []
            /// The close frame the client sent, once it did.
            var sentClose: WebSocket.Closure?
            /// The close frame the server sent, once it did: the reader's end.
            var receivedClose: WebSocket.Closure?
            /// A failure found here, not yet given to the reader (after the messages before it).
            var pendingFailure: WebSocket.Failure?
            /// Whether a failure was found: messages are not delivered since.
            var hasFailed = false
            /// Whether the channel is closed.
            var isInactive = false
            var isReadingPaused = false

            /// Whether no more messages or pongs can come.
            var isOver: Bool { hasFailed || receivedClose != nil || isInactive }

            /// The next item for the reader, when there is one; `resume` when reading may resume.
            mutating func next() -> (item: Item?, resume: Bool) {
                if !messages.isEmpty {
                    let message = messages.removeFirst()
                    let resume = isReadingPaused && messages.count < WebSocketFrameHandler.highWaterMark / 2
                    if resume { isReadingPaused = false }
                    return (.message(message), resume)
                }
                if let failure = pendingFailure.take() { return (.failed(failure), false) }
                if let receivedClose { return (.closed(receivedClose), false) }
                if isInactive { return (.failed(.connectionLost), false) }
                return (nil, false)
            }
        }

        private let state = LockedValue(State())
        private let maximumMessageSize: Int
        /// How long the server's close frame is awaited after the client's.
        let closeTimeout: TimeAmount

        init(maximumMessageSize: Int, closeTimeout: TimeAmount) {
            self.maximumMessageSize = maximumMessageSize
            self.closeTimeout = closeTimeout
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
                deliver(.text(text), context: context)
            case .binary:
                deliver(.binary(Data(frame.data.readableBytesView)), context: context)
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

        /// The bytes as text when they are well-formed UTF-8, else `nil`: decoding repairs ill-formed
        /// sequences with U+FFFD, so the text is valid exactly when its UTF-8 is the bytes it came from.
        /// (`String(validating:as:)` says the same, but only from iOS 18 and macOS 15, above the package's floor.)
        static func validUTF8(_ bytes: ByteBufferView) -> String? {
            let text = String(decoding: bytes, as: UTF8.self)
            return text.utf8.elementsEqual(bytes) ? text : nil
        }

        /// Records the server's close frame, the reader's end; answers it (§5.5.1) unless it answers the
        /// client's, and ends the connection.
        private func receivedClose(_ data: ByteBuffer, context: ChannelHandlerContext) {
            var payload = data
            let code =
                payload.readInteger(as: UInt16.self).map(WebSocket.CloseCode.init(rawValue:)) ?? .noStatusReceived
            let reason = Self.validUTF8(payload.readableBytesView)
            guard data.readableBytes != 1, code == .noStatusReceived || code.isSendable, let reason else {
                fail(.protocolError(reason: "a malformed close frame"), code: .protocolError, context)
                return
            }
            let closure = WebSocket.Closure(code: code, reason: reason)
            let answers = markClosing(closure)
            // First the reader's end: closing the channel below ends it as lost otherwise.
            let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
                if state.receivedClose == nil, !state.isInactive { state.receivedClose = closure }
                defer { state.pongWaiters = [] }
                return state.pongWaiters
            }
            waiters.forEach { $0.resume(returning: false) }
            wakeReader()
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
            let (pongWaiters, endWaiters) = state.withLock { state in
                state.isInactive = true
                defer {
                    state.pongWaiters = []
                    state.endWaiters = []
                }
                return (state.pongWaiters, state.endWaiters)
            }
            pongWaiters.forEach { $0.resume(returning: false) }
            endWaiters.forEach { $0.resume() }
            wakeReader()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            switch error {
            case is OversizedMessageFilter.MessageTooLarge,
                NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
                // The filter drops the rest of the message: the server's close frame can still be read.
                fail(.messageTooLarge(limit: maximumMessageSize), code: .messageTooBig, context, awaitsAnswer: true)
            case NIOWebSocketError.invalidFrameLength:
                fail(.messageTooLarge(limit: maximumMessageSize), code: .messageTooBig, context)
            case is NIOWebSocketFrameAggregator.Error, is NIOWebSocketError:
                fail(.protocolError(reason: "\(error)"), code: .protocolError, context)
            default:
                // The socket or TLS failed (a reset, an unclean shutdown): the connection is lost, and
                // no close frame can go out on it.
                context.close(promise: nil)
            }
        }

        /// Fails the connection: a close frame with `code` when none was sent, `failure` for the
        /// reader, and the end of the channel — at once, or once the server has answered with its close
        /// frame (``closeTimeout`` at most) when `awaitsAnswer`.
        private func fail(
            _ failure: WebSocket.Failure,
            code: WebSocket.CloseCode,
            _ context: ChannelHandlerContext,
            awaitsAnswer: Bool = false
        ) {
            if markClosing(WebSocket.Closure(code: code)) {
                context.writeAndFlush(Self.wrapOutboundOut(Self.closeFrame(code, reason: "")), promise: nil)
            }
            let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
                if !state.isOver {
                    state.hasFailed = true
                    state.pendingFailure = failure
                }
                defer { state.pongWaiters = [] }
                return state.pongWaiters
            }
            waiters.forEach { $0.resume(returning: false) }
            wakeReader()
            if awaitsAnswer {
                Self.cut(context.channel, after: closeTimeout)
            } else {
                context.close(promise: nil)
            }
        }

        /// Closes `channel` after `delay`, unless it is closed before.
        static func cut(_ channel: any Channel, after delay: TimeAmount) {
            channel.eventLoop.scheduleTask(in: delay) { channel.close(promise: nil) }
        }

        /// A masked close frame.
        static func closeFrame(_ code: WebSocket.CloseCode, reason: String) -> WebSocketFrame {
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
                    let (item, resume) = state.next()
                    if item == nil { state.reader = continuation }
                    return (item, resume)
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
                    if state.isOver { return true }
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

        /// Returns once the channel is closed.
        func awaitEnd() async {
            await withCheckedContinuation { continuation in
                let ended = state.withLock { state -> Bool in
                    if state.isInactive { return true }
                    state.endWaiters.append(continuation)
                    return false
                }
                if ended { continuation.resume() }
            }
        }

        /// Ends the wait of a reader whose task was cancelled.
        func interruptReader() {
            let reader = state.withLock { $0.reader.take() }
            reader?.resume(returning: .failed(.connectionLost))
        }

        /// Records the client's close frame; `false` when one was sent or the connection ended.
        func markClosing(_ closure: WebSocket.Closure) -> Bool {
            state.withLock { state in
                guard state.sentClose == nil, state.receivedClose == nil, !state.isInactive else { return false }
                state.sentClose = closure
                return true
            }
        }

        /// Why a message can no longer be sent: the close frame the client sent (or answered the
        /// server's with), or ``WebSocket/CloseCode/abnormalClosure`` once the connection ended without
        /// one; `nil` while it is open.
        var closedForSending: WebSocket.Closure? {
            state.withLock { state in
                state.sentClose ?? (state.isOver ? WebSocket.Closure(code: .abnormalClosure) : nil)
            }
        }

        /// Whether the channel stopped reading because the reader fell behind: the server is sending,
        /// so it is alive, and a ping's pong may wait behind the queued messages.
        var isReadingPaused: Bool {
            state.withLock { $0.isReadingPaused }
        }

        /// Queues `message` for the reader, or hands it over; pauses reading at the high-water mark.
        /// Once the connection failed or the server closed it, messages are dropped.
        private func deliver(_ message: WebSocket.Message, context: ChannelHandlerContext) {
            let (reader, pause) = state.withLock { state -> (CheckedContinuation<Item, Never>?, Bool) in
                guard !state.isOver else { return (nil, false) }
                if let reader = state.reader.take() { return (reader, false) }
                state.messages.append(message)
                let pause = !state.isReadingPaused && state.messages.count >= Self.highWaterMark
                if pause { state.isReadingPaused = true }
                return (nil, pause)
            }
            reader?.resume(returning: .message(message))
            if pause {
                context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
            }
        }

        /// Hands the waiting reader its next item, when there is one.
        /// (A reader waits only while no message is queued, so reading is not paused then.)
        private func wakeReader() {
            let (reader, item) = state.withLock { state -> (CheckedContinuation<Item, Never>?, Item?) in
                guard state.reader != nil, let item = state.next().item else { return (nil, nil) }
                return (state.reader.take(), item)
            }
            if let reader, let item { reader.resume(returning: item) }
        }
    }
#endif
