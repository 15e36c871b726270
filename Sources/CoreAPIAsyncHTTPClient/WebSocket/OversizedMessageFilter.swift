#if AsyncHTTPClient
    import NIOCore

    /// Keeps the frames of a message over the size limit from NIO's frame decoder, which would fail on
    /// the first frame over its limit and then read nothing more — not even the server's close frame,
    /// which the closing handshake waits for.
    ///
    /// It sits between the socket and the decoder and reads only frame headers (RFC 6455 §5.2): the
    /// frames of a message that stays within the limit pass as they came. Once a message passes the
    /// limit, it reports `MessageTooLarge` (as an error down the pipeline), and from then on drops the
    /// bytes of every data frame unread, keeping only control frames (close, ping, pong), so memory
    /// stays bounded however large the message is.
    final class OversizedMessageFilter: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer

        /// A message passed the size limit; reported once.
        struct MessageTooLarge: Error {}

        private let maximumMessageSize: Int
        /// The header bytes of the next frame while they arrive in pieces.
        private var header: [UInt8] = []
        /// The payload bytes of the current frame still to pass on or drop.
        private var remaining = 0
        /// Whether the current frame is passed on.
        private var isPassing = true
        /// The payload bytes of the current message so far.
        private var messageSize = 0
        /// Whether a message passed the limit: every data frame is dropped since.
        private var isDropping = false

        init(maximumMessageSize: Int) {
            self.maximumMessageSize = maximumMessageSize
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = Self.unwrapInboundIn(data)
            while buffer.readableBytes > 0 {
                if remaining > 0 {
                    let count = min(remaining, buffer.readableBytes)
                    let piece = buffer.readSlice(length: count)!
                    remaining -= count
                    if isPassing { context.fireChannelRead(Self.wrapInboundOut(piece)) }
                } else if header.isEmpty, let frame = Self.parseHeader(buffer.readableBytesView) {
                    // The whole header is in this buffer: the frame passes as a slice, uncopied.
                    decide(frame, context: context)
                    let count = frame.headerSize + min(frame.length, buffer.readableBytes - frame.headerSize)
                    let piece = buffer.readSlice(length: count)!
                    remaining = frame.length - (count - frame.headerSize)
                    if isPassing { context.fireChannelRead(Self.wrapInboundOut(piece)) }
                } else {
                    header.append(buffer.readInteger(as: UInt8.self)!)
                    guard let frame = Self.parseHeader(header) else { continue }
                    decide(frame, context: context)
                    remaining = frame.length
                    if isPassing {
                        context.fireChannelRead(Self.wrapInboundOut(context.channel.allocator.buffer(bytes: header)))
                    }
                    header.removeAll(keepingCapacity: true)
                }
            }
        }

        /// Whether the frame whose header was read passes, and whether its message passed the limit.
        private func decide(_ frame: FrameHeader, context: ChannelHandlerContext) {
            guard !frame.isControl else {
                isPassing = true
                return
            }
            if !frame.isContinuation { messageSize = 0 }
            messageSize = messageSize > Int.max - frame.length ? Int.max : messageSize + frame.length
            if !isDropping, messageSize > maximumMessageSize {
                isDropping = true
                context.fireErrorCaught(MessageTooLarge())
            }
            isPassing = !isDropping
        }

        /// What a frame's header says.
        struct FrameHeader {
            var headerSize: Int
            var isControl: Bool
            var isContinuation: Bool
            /// The payload length; `Int.max` for a length beyond it.
            var length: Int
        }

        /// The header at the start of `bytes` (RFC 6455 §5.2), or `nil` while it is incomplete.
        static func parseHeader<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> FrameHeader? {
            var iterator = bytes.makeIterator()
            guard let first = iterator.next(), let second = iterator.next() else { return nil }
            let masked = second & 0x80 != 0
            var length = UInt64(second & 0x7F)
            var headerSize = 2
            let extended = length == 126 ? 2 : length == 127 ? 8 : 0
            if extended > 0 {
                length = 0
                for _ in 0..<extended {
                    guard let byte = iterator.next() else { return nil }
                    length = length << 8 | UInt64(byte)
                }
                headerSize += extended
            }
            if masked {
                headerSize += 4
                guard bytes.count >= headerSize else { return nil }
            }
            let opcode = first & 0x0F
            return FrameHeader(
                headerSize: headerSize,
                isControl: opcode & 0x08 != 0,
                isContinuation: opcode == 0,
                length: length > UInt64(Int.max) ? Int.max : Int(length)
            )
        }
    }
#endif
