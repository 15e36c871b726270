#if AsyncHTTPClient
    import AsyncHTTPClient
    import CoreAPI
    import Foundation
    import NIOCore
    import NIOHTTP1

    /// How the transport reads a response: a thin shell around `ResponseCollector`, which holds the
    /// rules; the body is decoded as it arrives.
    extension AsyncHTTPClientTransport {
        /// Feeds the head of `response`, then its decoded body, to a `ResponseCollector`, and does what
        /// it says. Stopping early drops the response body, which makes AsyncHTTPClient close the
        /// connection.
        func read(
            _ response: HTTPClientResponse,
            url: URL,
            method: CoreAPI.HTTPMethod,
            exchange: TrackedExchange,
            options: TransportOptions
        ) async throws -> RawResponse {
            let head = Self.head(of: response, url: url)
            exchange.receivedHead()
            if response.history.count > 1 {
                // The client followed a redirect, which only the session may do.
                let first = response.history[0]
                let target = response.history[1].request.url
                throw ApiError.redirect(
                    .init(
                        reason: .tooManyRedirects(limit: 0),
                        statusCode: Int(first.responseHead.status.code),
                        target: URL(string: target)
                    )
                )
            }
            var collector = ResponseCollector(method: method, options: options, decodedCodings: ContentDecoder.codings)
            let disposition = try collector.receive(head)
            let decoder = collector.hasBody ? ContentDecoder(contentEncoding: collector.contentEncoding) : nil
            if case .stream(let handler) = disposition {
                exchange.received(0, of: nil)
                try await stream(
                    response.body,
                    decoder: decoder,
                    to: handler,
                    exchange: exchange,
                    collector: &collector
                )
                return try collector.finish()
            }
            exchange.received(0, of: nil)
            var complete = false
            for try await buffer in response.body {
                exchange.touch()
                try Task.checkCancellation()
                try buffer.withUnsafeReadableBytes { bytes in
                    if let decoder {
                        try decoder.decode(bytes) { piece in
                            if !complete, try collector.append(piece) == .complete { complete = true }
                        }
                    } else if try collector.append(bytes) == .complete {
                        complete = true
                    }
                }
                if complete { break }  // the rest of a redirect's body is not read
                exchange.received(collector.progress)
            }
            if !complete {
                try decoder?.finish()
            }
            // A body cut short by a cancel is no body.
            try Task.checkCancellation()
            return try collector.finish()
        }

        /// Hands the body to `handler` piece by piece as it arrives, decoded, holding none of it.
        ///
        /// Before each piece it waits until the handler's reader has room for it, and meanwhile asks
        /// `body` for nothing more: AsyncHTTPClient then stops reading from the connection, and TCP's flow
        /// control holds the server, so a slow reader slows the transfer instead of growing memory.
        private func stream(
            _ body: HTTPClientResponse.Body,
            decoder: ContentDecoder?,
            to handler: TransportOptions.BodyHandler,
            exchange: TrackedExchange,
            collector: inout ResponseCollector
        ) async throws {
            var decoded: [Data] = []
            for try await buffer in body {
                exchange.touch()
                try Task.checkCancellation()
                if let decoder {
                    try buffer.withUnsafeReadableBytes { bytes in
                        try decoder.decode(bytes) { decoded.append(Data($0)) }
                    }
                } else {
                    decoded.append(Data(buffer.readableBytesView))
                }
                for piece in decoded {
                    if !handler.hasRoom(for: piece.count) {
                        try await exchange.waitingForReader { try await handler.waitForRoom(for: piece.count) }
                    }
                    collector.streamed(piece.count)
                    do {
                        try handler.receive(piece)
                    } catch {
                        throw ApiError(error)
                    }
                }
                decoded.removeAll(keepingCapacity: true)
                exchange.received(collector.progress)
            }
            try decoder?.finish()
            try Task.checkCancellation()
        }

        /// CoreAPI's head for `response`: its status and its header fields as AsyncHTTPClient keeps them,
        /// in order, repeated names as separate fields (`Set-Cookie` among them).
        static func head(of response: HTTPClientResponse, url: URL) -> ResponseHead {
            var fields: [Headers.Field] = []
            fields.reserveCapacity(response.headers.count)
            for (name, value) in response.headers {
                fields.append(Headers.Field(name: name, value: value))
            }
            return ResponseHead(status: HTTPStatus(Int(response.status.code)), headers: Headers(fields), url: url)
        }
    }
#endif
