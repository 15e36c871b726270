public import Foundation

/// Encodes parameters as a `multipart/form-data` body (RFC 7578).
///
/// Properties of type ``Attachment``, `[Attachment]` and `Data` become file parts (a `Data` part is named
/// after its field, `application/octet-stream`); everything else becomes text fields, arrays as repeated
/// fields by default and nested objects as `key[sub]`. Parts follow the order in which the method encodes
/// its properties (declaration order for synthesized `Encodable`), so a service that wants the file last
/// gets it by declaring it last. Dates, booleans and keys follow the same strategies as the other encoders.
///
/// Field names and filenames are sent as UTF-8 inside quotes, with `"` and `\` escaped by a backslash and
/// CR and LF as `%0D` and `%0A`; any other control character is a typed error. The boundary is random
/// (128 bits) and is checked never to occur in any part; a new one is drawn if it does.
///
/// Through ``ApiSession``, a body larger than ``streamingThreshold`` is written part by part to a
/// temporary file, attachment files copied in chunks, and uploaded from that file. The file is written
/// only when the transport sends the request — after the middlewares, so a mock that answers pays
/// nothing — once for each attempt, and removed when the attempt ends, however it ends; the file of a
/// process killed meanwhile is removed by the next process that writes one in the same folder (see
/// ``temporaryDirectory``). Smaller bodies are built in memory. ``encode(_:in:)`` on its own always
/// builds the body in memory.
public struct MultipartFormDataEncoder: ParametersEncoding {
    /// How keys are converted.
    public var keyEncoding: EncodingStrategy.Keys
    /// How arrays, booleans and dates of text fields are written (escaping does not apply).
    public var format: QueryString
    /// Bodies larger than this many bytes are streamed from a temporary file; 10 MiB by default.
    public var streamingThreshold: Int64
    /// Where temporary body files are written, each named `CoreAPI-multipart-<process ID>-<UUID>.tmp`.
    ///
    /// The first such file a process writes in a folder sweeps the folder first: it removes the files of
    /// this form, owned by the same user, whose process no longer runs, and those of any process (or of
    /// an earlier version, without a process ID) not changed for a day.
    public var temporaryDirectory: URL
    /// The size of the chunks attachment files are copied in.
    public var chunkSize: Int

    /// Draws a boundary; replaceable in tests.
    var makeBoundary: @Sendable () -> String = MultipartFormDataEncoder.randomBoundary

    /// Creates an encoder.
    public init(
        arrayEncoding: EncodingStrategy.Arrays = .repeatedKey,
        boolEncoding: EncodingStrategy.Bools = .literal,
        dateEncoding: EncodingStrategy.Dates = .iso8601,
        keyEncoding: EncodingStrategy.Keys = .useDefaultKeys,
        streamingThreshold: Int64 = 10 * 1024 * 1024,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory,
        chunkSize: Int = 1024 * 1024
    ) {
        self.keyEncoding = keyEncoding
        self.format = QueryString(arrayEncoding: arrayEncoding, boolEncoding: boolEncoding, dateEncoding: dateEncoding)
        self.streamingThreshold = streamingThreshold
        self.temporaryDirectory = temporaryDirectory
        self.chunkSize = max(chunkSize, 4096)
    }

    /// The length of a random boundary.
    static let randomBoundaryLength = 40

    /// A new random boundary: `CoreAPI-` and 32 hex digits (128 bits).
    static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = String(generator.next() as UInt64, radix: 16)
        let low = String(generator.next() as UInt64, radix: 16)
        return "CoreAPI-" + String(repeating: "0", count: 16 - high.count) + high
            + String(repeating: "0", count: 16 - low.count) + low
    }

    /// A multipart body built in memory.
    public struct Body: Sendable {
        /// The boundary, as in the `Content-Type`.
        public var boundary: String
        /// The body bytes.
        public var data: Data
        /// `multipart/form-data; boundary=…`.
        public var contentType: String { "multipart/form-data; boundary=\(boundary)" }
    }

    /// The body of `parameters` built in memory, or `nil` when they encode no field.
    /// - Throws: ``ApiError/invalidRequest(_:)``: ``ApiError/InvalidRequestReason/encoding(_:)`` for a value,
    ///   name or MIME type that cannot be encoded, ``ApiError/InvalidRequestReason/unreadableFile(path:)``
    ///   for an attachment file that cannot be read.
    public func body(for parameters: any Encodable) throws -> Body? {
        guard let parts = try parts(for: parameters) else { return nil }
        return try withFreshBoundary { boundary in
            var sink = MemorySink()
            try write(parts, boundary: boundary, to: &sink)
            return Body(boundary: boundary, data: sink.data)
        }
    }

    /// Returns `request` with the body in memory and `Content-Type: multipart/form-data; boundary=…`.
    /// - Throws: as ``body(for:)``, and for any parameters on `GET` or `HEAD`.
    public func encode(_ parameters: any Encodable, in request: ApiRequest) throws -> ApiRequest {
        guard let body = try body(for: parameters) else { return request }
        try Self.checkMethod(of: request)
        var request = request
        request.headers.set(body.contentType, for: "Content-Type")
        request.body = .data(body.data)
        return request
    }

    /// Returns `request` with the body in memory when it is at most ``streamingThreshold`` bytes, and
    /// otherwise with the body written to a temporary file in ``temporaryDirectory``.
    ///
    /// Cancelling the calling task while the file is written stops it, removes the file and throws
    /// ``ApiError/cancelled``.
    /// - Throws: as ``encode(_:in:)``.
    public func encodeRequest(_ parameters: any Encodable, in request: ApiRequest) throws -> ApiRequest {
        var encoded = try encodeDeferringBody(parameters, in: request)
        if let pending = encoded.pendingBodyFile.take() {
            encoded.body = .file(try pending.write(into: &encoded))
        }
        return encoded
    }

    /// As ``encodeRequest(_:in:)``, but a body above ``streamingThreshold`` is left to be written to its
    /// temporary file when a transport sends the request (`ApiRequest.pendingBodyFile`).
    func encodeDeferringBody(_ parameters: any Encodable, in request: ApiRequest) throws -> ApiRequest {
        guard let parts = try parts(for: parameters) else { return request }
        try Self.checkMethod(of: request)
        var request = request
        let length = Self.length(of: parts, boundaryLength: Self.randomBoundaryLength)
        guard length > streamingThreshold else {
            return try withFreshBoundary { boundary in
                var sink = MemorySink()
                try write(parts, boundary: boundary, to: &sink)
                request.headers.set("multipart/form-data; boundary=\(boundary)", for: "Content-Type")
                request.body = .data(sink.data)
                return request
            }
        }
        let boundary = makeBoundary()
        request.headers.set("multipart/form-data; boundary=\(boundary)", for: "Content-Type")
        request.headers.set(String(Self.length(of: parts, boundaryLength: boundary.utf8.count)), for: "Content-Length")
        request.body = .none
        request.pendingBodyFile = PendingBodyFile(encoder: self, parts: parts, boundary: boundary)
        return request
    }

    /// Writes `parts` to a new temporary file, with `boundary` unless it occurs in a part, and returns
    /// the file and the boundary used. Stops with ``ApiError/cancelled`` as soon as `shouldStop` says so.
    func writeTemporaryFile(
        _ parts: [Part],
        boundary: String,
        shouldStop: () -> Bool
    ) throws -> (ApiRequest.File, boundary: String) {
        let url = TemporaryFileName.multipartBody.makeURL(in: temporaryDirectory)
        do {
            let used = try withFreshBoundary(startingWith: boundary) { boundary in
                guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                    throw ApiError.invalidRequest(
                        .encoding("cannot create a temporary file in \(temporaryDirectory.path)")
                    )
                }
                let handle = try FileHandle(forWritingTo: url)
                defer { try? handle.close() }
                var sink = FileSink(handle: handle)
                try write(parts, boundary: boundary, to: &sink, shouldStop: shouldStop)
                try sink.flush()
                return boundary
            }
            let written = Self.length(of: parts, boundaryLength: used.utf8.count)
            return (ApiRequest.File(url: url, length: written, isTemporary: true), used)
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    // MARK: - Parts

    /// One part: its header block (from the delimiter line to the blank line) and its content.
    struct Part {
        enum Content {
            case bytes(Data)
            case file(URL, length: Int64)
        }

        var header: Data
        var content: Content

        var contentLength: Int64 {
            switch content {
            case .bytes(let data): Int64(data.count)
            case .file(_, let length): length
            }
        }
    }

    /// The parts of `parameters`, or `nil` when they encode no field. Attachment files are opened here,
    /// so an unreadable one fails before anything is written.
    func parts(for parameters: any Encodable) throws -> [Part]? {
        let tree: ParameterValue?
        do {
            tree = try ParameterTreeEncoder(keyEncoding: keyEncoding).encode(parameters)
        } catch {
            throw ApiError.encoding(error)
        }
        guard let tree else { return nil }
        var parts: [Part] = []
        for field in try format.fields(for: tree, sortsKeys: false) {
            let name = try Self.quoted(field.key, what: "field name")
            switch field.values.first {
            case .attachment(let attachment) where field.values.count == 1:
                parts.append(try Self.filePart(attachment, name: name))
            case .data(let data) where field.values.count == 1:
                let attachment = Attachment(data: data, filename: field.key, mimeType: "application/octet-stream")
                parts.append(try Self.filePart(attachment, name: name))
            default:
                let texts = try field.values.map { value in
                    switch value {
                    case .attachment, .data:
                        throw ApiError.invalidRequest(
                            .encoding("\(field.key): files cannot be part of a comma-separated array")
                        )
                    default:
                        format.text(for: value)
                    }
                }
                let header = "Content-Disposition: form-data; name=\(name)\r\n\r\n"
                parts.append(Part(header: Data(header.utf8), content: .bytes(Data(texts.joined(separator: ",").utf8))))
            }
        }
        return parts.isEmpty ? nil : parts
    }

    private static func filePart(_ attachment: Attachment, name: String) throws -> Part {
        let filename = try quoted(attachment.filename, what: "filename")
        let mimeType = attachment.mimeType
        guard !mimeType.isEmpty, mimeType.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw ApiError.invalidRequest(
                .encoding(
                    "MIME type \(mimeType.debugDescription) of \(attachment.filename.debugDescription) is not printable ASCII"
                )
            )
        }
        let header =
            "Content-Disposition: form-data; name=\(name); filename=\(filename)\r\nContent-Type: \(mimeType)\r\n\r\n"
        switch attachment.content {
        case .data(let data):
            return Part(header: Data(header.utf8), content: .bytes(data))
        case .file(let url):
            return Part(header: Data(header.utf8), content: .file(url, length: try readableLength(of: url)))
        }
    }

    /// The size of a readable regular file.
    private static func readableLength(of url: URL) throws -> Int64 {
        let unreadable = ApiError.invalidRequest(.unreadableFile(path: url.path))
        guard url.isFileURL,
            // Attributes of the file a symbolic link points to, not of the link.
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.int64Value,
            let handle = try? FileHandle(forReadingFrom: url)
        else { throw unreadable }
        try? handle.close()
        return size
    }

    /// `text` as a quoted string: `"` and `\` escaped by a backslash, CR and LF percent-encoded, UTF-8 kept.
    /// - Throws: ``ApiError/invalidRequest(_:)`` for NUL or another control character.
    static func quoted(_ text: String, what: String) throws -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            case "\t": result.unicodeScalars.append(scalar)
            default:
                // C0 controls, DEL and C1 controls (U+0085 is a line break to some parsers).
                guard scalar.value >= 0x20, !(0x7F...0x9F).contains(scalar.value) else {
                    throw ApiError.invalidRequest(
                        .encoding("the \(what) \(text.debugDescription) contains a control character")
                    )
                }
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func checkMethod(of request: ApiRequest) throws {
        let method = request.method
        guard method != .get, method != .head else {
            throw ApiError.invalidRequest(
                .encoding("a \(method) request cannot carry a multipart body; use QueryParametersEncoder")
            )
        }
    }

    // MARK: - Writing

    /// The body length: per part `--B\r\n`, header, content, `\r\n`; then `--B--\r\n`.
    static func length(of parts: [Part], boundaryLength: Int) -> Int64 {
        let delimiter = Int64(boundaryLength + 4)
        let perPart = parts.reduce(Int64(0)) { $0 + delimiter + Int64($1.header.count) + $1.contentLength + 2 }
        return perPart + Int64(boundaryLength + 6)
    }

    /// Runs `body` with `first`, then new boundaries, until one does not occur in any part (at most 8
    /// tries).
    private func withFreshBoundary<Result>(
        startingWith first: String? = nil,
        _ body: (String) throws -> Result
    ) throws -> Result {
        var first = first
        for _ in 0..<8 {
            do {
                return try body(first.take() ?? makeBoundary())
            } catch is BoundaryCollision {
                continue
            }
        }
        throw ApiError.invalidRequest(.encoding("no multipart boundary could be found that occurs in no part"))
    }

    private func write(
        _ parts: [Part],
        boundary: String,
        to sink: inout some BodySink,
        shouldStop: () -> Bool = { Task.isCancelled }
    ) throws {
        let pattern = Data(("--" + boundary).utf8)
        var scanner = BoundaryScanner(pattern: pattern)
        for part in parts {
            try sink.write(Data(("--" + boundary + "\r\n").utf8))
            try scanner.check(part.header)
            try sink.write(part.header)
            scanner.reset()
            switch part.content {
            case .bytes(let data):
                try scanner.scan(data)
                try sink.write(data)
            case .file(let url, let length):
                try copy(url, length: length, to: &sink, scanner: &scanner, shouldStop: shouldStop)
            }
            scanner.reset()
            try sink.write(Data("\r\n".utf8))
        }
        try sink.write(Data(("--" + boundary + "--\r\n").utf8))
    }

    /// Copies `length` bytes of a file in chunks; the file must not have changed size since it was measured.
    private func copy(
        _ url: URL,
        length: Int64,
        to sink: inout some BodySink,
        scanner: inout BoundaryScanner,
        shouldStop: () -> Bool
    ) throws {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw ApiError.invalidRequest(.unreadableFile(path: url.path))
        }
        defer { try? handle.close() }
        var remaining = length
        while remaining > 0 {
            if shouldStop() {
                throw ApiError.cancelled
            }
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: Int(min(Int64(chunkSize), remaining))) ?? Data()
            } catch {
                throw ApiError.invalidRequest(.unreadableFile(path: url.path))
            }
            guard !chunk.isEmpty else {
                throw ApiError.invalidRequest(
                    .encoding("\(url.lastPathComponent) became shorter while the body was built")
                )
            }
            try scanner.scan(chunk)
            try sink.write(chunk)
            remaining -= Int64(chunk.count)
        }
    }
}

extension ParametersEncoding where Self == MultipartFormDataEncoder {
    /// A `multipart/form-data` body with default strategies, streamed from a temporary file above 10 MiB.
    public static var multipart: MultipartFormDataEncoder { MultipartFormDataEncoder() }
}
