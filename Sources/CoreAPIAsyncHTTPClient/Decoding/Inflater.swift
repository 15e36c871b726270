#if AsyncHTTPClient
    import CoreAPI
    import CoreAPIZlib

    /// One `gzip` or `deflate` layer of a body, inflated with zlib as the body arrives.
    ///
    /// Each call to zlib writes at most `outputSize` bytes, which are handed on before the next call: a
    /// consumer that throws (the size limit was passed) stops the inflation there, so a small body that
    /// inflates to gigabytes costs no more than the bytes the consumer accepted plus one output buffer.
    ///
    /// Bytes after the end of the compressed stream are ignored, as libcurl does. A `deflate` body is
    /// meant to be zlib-wrapped (RFC 9110 §8.4.1.2), but some servers send raw deflate data: as with
    /// libcurl, a body that does not start with a zlib header is read as raw deflate.
    final class Inflater {
        /// How many bytes one call to zlib writes at most.
        static let outputSize = 64 * 1024

        /// Whether the layer is `deflate` rather than `gzip`.
        private let isDeflate: Bool
        /// The zlib stream, at a fixed address (zlib keeps a pointer back to it); initialised once the
        /// first bytes tell which format they are.
        private let stream: UnsafeMutablePointer<z_stream>
        private let output: UnsafeMutableRawBufferPointer
        private var isStarted = false
        /// The first byte of a `deflate` body, kept until the second one arrives: the two of them tell a
        /// zlib header from raw deflate data.
        private var firstByte: UInt8?
        /// Whether the compressed stream has ended; later bytes are ignored.
        private(set) var isFinished = false
        /// Whether any byte arrived.
        private(set) var hasInput = false

        /// Creates a layer for `deflate` (`true`) or `gzip` and `x-gzip` (`false`).
        init(deflate isDeflate: Bool) {
            self.isDeflate = isDeflate
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            output = .allocate(byteCount: Self.outputSize, alignment: 1)
        }

        deinit {
            if isStarted {
                inflateEnd(stream)
            }
            stream.deinitialize(count: 1)
            stream.deallocate()
            output.deallocate()
        }

        /// Inflates `input`, handing each piece of output to `emit` as soon as it is written.
        /// - Throws: `badResponse` when the bytes are not what the coding
        ///   says, or what `emit` throws.
        func inflate(_ input: UnsafeRawBufferPointer, into emit: (UnsafeRawBufferPointer) throws -> Void) throws {
            guard !isFinished, !input.isEmpty else { return }
            hasInput = true
            if !isStarted {
                if isDeflate {
                    guard let first = firstByte ?? input.first else { return }
                    let rest = firstByte == nil ? input.dropFirst() : input[...]
                    guard let second = rest.first else {
                        firstByte = first  // a body's first byte alone: wait for the second
                        return
                    }
                    // RFC 1950 §2.2: compression method 8 and a header that is a multiple of 31.
                    let isZlib = first & 0x0f == 8 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
                    try start(windowBits: isZlib ? 15 : -15)
                    if let kept = firstByte {
                        firstByte = nil
                        try withUnsafeBytes(of: kept) { try run($0, emit) }
                    }
                } else {
                    try start(windowBits: 15 + 32)  // a gzip (or zlib) header, detected by zlib
                }
            }
            try run(input, emit)
        }

        /// Throws `badResponse` when the body ended before the compressed
        /// stream did; an empty body is fine.
        func finish() throws(ApiError) {
            if hasInput && !isFinished {
                throw ApiError.transport(.init(kind: .badResponse))
            }
        }

        private func start(windowBits: Int32) throws(ApiError) {
            guard CoreAPIZlib_inflateInit2(stream, windowBits) == Z_OK else {
                throw ApiError.transport(.init(kind: .other))
            }
            isStarted = true
        }

        /// Feeds `input` to zlib until it is all consumed and no output is pending.
        private func run(_ input: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
            guard let base = input.baseAddress, !input.isEmpty else { return }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(input.count)
            defer {
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
            }
            while true {
                stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(output.count)
                let status = CoreAPIZlib.inflate(stream, Z_NO_FLUSH)
                let written = output.count - Int(stream.pointee.avail_out)
                if written > 0 {
                    try emit(UnsafeRawBufferPointer(rebasing: output[..<written]))
                }
                switch status {
                case Z_STREAM_END:
                    isFinished = true
                    return
                case Z_OK:
                    // More to do while input is left or the output buffer was filled.
                    if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 {
                        return
                    }
                case Z_BUF_ERROR where stream.pointee.avail_in == 0:
                    return  // no progress without more input
                default:
                    throw ApiError.transport(.init(kind: .badResponse))
                }
            }
        }
    }
#endif
