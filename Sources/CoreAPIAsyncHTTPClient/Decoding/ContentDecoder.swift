#if AsyncHTTPClient
    import CoreAPI

    /// Decodes the content codings of a body as it arrives: one `Inflater` per `gzip`, `x-gzip` or
    /// `deflate` layer, the last coding applied decoded first (RFC 9110 §8.4).
    ///
    /// Output goes to the consumer piece by piece, at most `outputSize` bytes at a time, and
    /// a consumer that throws ends the decoding at once.
    struct ContentDecoder {
        /// The codings decoded, lower-cased; `identity` changes nothing.
        static let codings: Set<String> = ["identity", "gzip", "x-gzip", "deflate"]

        /// The layers, outermost (the last coding applied) first.
        private let layers: [Inflater]

        /// A decoder for a `Content-Encoding` field value, or `nil` when it names no coding to undo.
        /// The value must have passed `HeadChecks.failure(method:decodedCodings:)` with
        /// `codings`: other codings are not decoded.
        init?(contentEncoding value: String?) {
            guard let value else { return nil }
            let codings = HeadChecks.elements(of: value).map { $0.lowercased() }.filter { $0 != "identity" }
            guard !codings.isEmpty else { return nil }
            layers = codings.reversed().map { Inflater(deflate: $0 == "deflate") }
        }

        /// Decodes `input`, handing the decoded bytes to `emit` piece by piece.
        /// - Throws: `badResponse` for bytes the codings cannot
        ///   decode, or what `emit` throws.
        func decode(_ input: UnsafeRawBufferPointer, into emit: (UnsafeRawBufferPointer) throws -> Void) throws {
            try decode(input, layer: 0, into: emit)
        }

        /// Throws `badResponse` when the body ended before one of its
        /// compressed streams did.
        func finish() throws(ApiError) {
            for layer in layers {
                try layer.finish()
            }
        }

        private func decode(
            _ input: UnsafeRawBufferPointer,
            layer index: Int,
            into emit: (UnsafeRawBufferPointer) throws -> Void
        ) throws {
            guard index < layers.count else {
                try emit(input)
                return
            }
            try layers[index].inflate(input) { piece in
                try decode(piece, layer: index + 1, into: emit)
            }
        }
    }
#endif
