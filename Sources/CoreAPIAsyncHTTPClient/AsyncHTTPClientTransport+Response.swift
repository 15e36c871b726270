#if AsyncHTTPClient
    import AsyncHTTPClient
    import CoreAPI
    import Foundation
    import NIOCore
    import NIOHTTP1

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

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
            let head = try Self.head(of: response, url: url)
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
            let fields = ResponseHead(
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
                    return RawResponse(response: head, data: Data())
                }
            }
            var kept: Int?
            if fields.isRedirect {
                // The session follows it: only the start of its body is kept, and the size limit is not
                // reached by a body that is not read.
                kept = Int(min(Int64(ResponseHead.redirectBodyLimit), max(limit, 0)))
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
            return RawResponse(response: head, data: data)
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

        /// The `HTTPURLResponse` for the head of `response`; repeated fields are joined with `", "`
        /// under the spelling of their first occurrence, as FoundationNetworking joins them.
        ///
        /// A head usually has a few fields, so a repeated one is found by comparing names as they are
        /// (ASCII, ignoring case) rather than through a table of lower-cased names: no string is made
        /// per field. Past `linearMergeLimit` fields the table is used, so a head of thousands of tiny
        /// fields costs no more than linear time.
        /// - Throws: `badResponse` when `HTTPURLResponse` refuses it.
        static func head(of response: HTTPClientResponse, url: URL) throws(ApiError) -> HTTPURLResponse {
            var names: [String] = []
            var values: [String] = []
            names.reserveCapacity(response.headers.count)
            values.reserveCapacity(response.headers.count)
            var positions: [String: Int]? = response.headers.count > linearMergeLimit ? [:] : nil
            for (name, value) in response.headers {
                let index: Int?
                if positions != nil {
                    let key = name.lowercased()
                    index = positions?[key]
                    if index == nil { positions?[key] = names.count }
                } else {
                    index = names.firstIndex { Self.equalIgnoringCase($0, name) }
                }
                if let index {
                    values[index] += ", " + value
                } else {
                    names.append(name)
                    values.append(value)
                }
            }
            let version: String
            switch (response.version.major, response.version.minor) {
            case (1, 1): version = "HTTP/1.1"
            case (2, 0): version = "HTTP/2.0"
            case let (major, minor): version = "HTTP/\(major).\(minor)"
            }
            guard
                let head = HTTPURLResponse(
                    url: url,
                    statusCode: Int(response.status.code),
                    httpVersion: version,
                    headerFields: Dictionary(zip(names, values)) { first, _ in first }
                )
            else {
                throw ApiError.transport(.init(kind: .badResponse))
            }
            return head
        }

        /// The most fields a head may have for repeated ones to be found by comparing names pairwise.
        static let linearMergeLimit = 32

        /// Whether two field names are equal ignoring ASCII case (RFC 9110 §5.1).
        static func equalIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
            var lhs = lhs
            var rhs = rhs
            return lhs.withUTF8 { left in
                rhs.withUTF8 { right in
                    left.count == right.count
                        && zip(left, right).allSatisfy { left, right in
                            // Equal, or the same letter in two cases (only letters differ by 0x20 alone).
                            left == right || (left | 0x20 == right | 0x20 && (0x61...0x7A).contains(left | 0x20))
                        }
                }
            }
        }
    }
#endif
