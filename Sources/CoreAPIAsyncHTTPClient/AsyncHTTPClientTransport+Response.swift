#if AsyncHTTPClient
    import AsyncHTTPClient
    import CoreAPI
    import Foundation
    import NIOCore
    import NIOHTTP1

    /// How the transport reads a response: the head is checked before the body, and the body is
    /// decoded and counted as it arrives.
    extension AsyncHTTPClientTransport {
        /// Thrown out of the body loop once a redirect's body has filled what is kept of it.
        private struct RedirectBodyKept: Error {}

        /// Checks the head of `response`, then reads its body.
        ///
        /// A redirect keeps at most `redirectBodyLimit` bytes of its body and stops
        /// there; any other body fails with `responseTooLarge(limit:)` as soon as its decoded
        /// bytes pass the limit — or at once when an identity body declares a larger `Content-Length`.
        /// Stopping drops the response body, which makes AsyncHTTPClient close the connection.
        func read(
            _ response: HTTPClientResponse,
            url: URL,
            method: String,
            exchange: Exchange,
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
            let fields = HeadChecks(
                statusCode: head.statusCode,
                contentLength: response.headers["Content-Length"],
                contentEncoding: response.headers["Content-Encoding"],
                hasLocation: response.headers.contains(name: "Location")
            )
            if let failure = fields.failure(method: method, decodedCodings: ContentDecoder.codings) {
                throw failure
            }
            let limit = options.maximumResponseSize
            let hasBody = method.uppercased() != "HEAD" && head.statusCode != 204 && head.statusCode != 304
            let declared = fields.declaredLength
            if !fields.isRedirect, let handler = options.bodyHandler {
                let accepted: Bool
                do {
                    accepted = try handler.accepts(head)
                } catch {
                    throw ApiError(error)
                }
                if accepted {
                    exchange.received(0, of: nil)
                    try await stream(
                        response.body,
                        decoder: hasBody ? ContentDecoder(contentEncoding: fields.contentEncoding) : nil,
                        to: handler,
                        exchange: exchange,
                        declared: declared
                    )
                    return RawResponse(head: head, data: Data())
                }
            }
            var kept: Int?
            if fields.isRedirect {
                // The session follows it: only the start of its body is kept, and the size limit is not
                // reached by a body that is not read.
                kept = Int(min(Int64(HeadChecks.redirectBodyLimit), max(limit, 0)))
            } else if hasBody, fields.declaresMore(than: limit) {
                throw ApiError.responseTooLarge(limit: limit)
            }
            exchange.received(0, of: nil)
            let decoder =
                hasBody ? ContentDecoder(contentEncoding: fields.contentEncoding) : nil
            var data = Data()
            let collect = { (piece: UnsafeRawBufferPointer) throws in
                if let kept, data.count + piece.count > kept {
                    data.append(contentsOf: piece.prefix(kept - data.count))
                    throw RedirectBodyKept()
                }
                if Int64(data.count) + Int64(piece.count) > limit {
                    // Counted on decoded bytes as they arrive; nothing more is read or inflated.
                    throw ApiError.responseTooLarge(limit: limit)
                }
                data.append(contentsOf: piece)
            }
            do {
                for try await buffer in response.body {
                    exchange.touch()
                    try Task.checkCancellation()
                    try buffer.withUnsafeReadableBytes { bytes in
                        if let decoder {
                            try decoder.decode(bytes, into: collect)
                        } else {
                            try collect(bytes)
                        }
                    }
                    let completed = Int64(data.count)
                    // Content-Length counts encoded bytes; a decoded body may be longer.
                    exchange.received(completed, of: declared.map { max($0, completed) })
                }
                try decoder?.finish()
            } catch is RedirectBodyKept {
                // The rest of the redirect's body is not read.
            }
            // A body cut short by a cancel is no body.
            try Task.checkCancellation()
            return RawResponse(head: head, data: data)
        }

        /// Hands the body to `handler` piece by piece as it arrives, decoded, holding none of it.
        ///
        /// Before each piece it waits until the handler's reader has room for it, and meanwhile asks
        /// `body` for nothing more: AsyncHTTPClient then stops reading from the connection, and TCP's flow
        /// control holds the server, so a slow reader slows the transfer instead of growing memory.
        private func stream(
            _ body: HTTPClientResponse.Body,
            decoder: ContentDecoder?,
            to handler: ResponseBodyHandler,
            exchange: Exchange,
            declared: Int64?
        ) async throws {
            var completed: Int64 = 0
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
                    completed += Int64(piece.count)
                    do {
                        try handler.receive(piece)
                    } catch {
                        throw ApiError(error)
                    }
                }
                decoded.removeAll(keepingCapacity: true)
                exchange.received(completed, of: declared.map { max($0, completed) })
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
