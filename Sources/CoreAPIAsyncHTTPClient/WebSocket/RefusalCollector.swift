#if AsyncHTTPClient
    import CoreAPI
    import Foundation
    import NIOCore
    import NIOHTTP1

    /// Collects the HTTP response of an opening handshake the server refused: its head and at most the
    /// first 64 KiB of its body, which is what a status error keeps. Then it ends the connection.
    final class RefusalCollector: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart

        let url: URL
        let promise: EventLoopPromise<RawResponse>
        private var head: HTTPResponseHead?
        private var body = Data()
        private var isComplete = false

        init(url: URL, promise: EventLoopPromise<RawResponse>) {
            self.url = url
            self.promise = promise
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch Self.unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
            case .body(let buffer):
                let room = ApiError.StatusFailure.maximumBodySize - body.count
                if room > 0 {
                    body.append(contentsOf: buffer.readableBytesView.prefix(room))
                }
            case .end:
                complete(context: context)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            complete(context: context)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            complete(context: context)
        }

        private func complete(context: ChannelHandlerContext) {
            guard !isComplete else { return }
            isComplete = true
            guard let head else {
                promise.fail(ApiError.transport(.init(kind: .connectionLost)))
                context.close(promise: nil)
                return
            }
            do {
                promise.succeed(
                    try RawResponse(
                        url: url,
                        statusCode: Int(head.status.code),
                        headers: Headers(head.headers),
                        data: body
                    )
                )
            } catch {
                promise.fail(error)
            }
            context.close(promise: nil)
        }
    }
#endif
