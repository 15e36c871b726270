// Fuzz target for `MultipartFormDataEncoder` (Sources/CoreAPI/Encoding/MultipartFormDataEncoder.swift).
//
// Input: tokens separated by 0xFF (see FuzzSupport.swift).
//   token 0, option bytes:
//     [0] array encoding: repeated key, brackets, indexed, comma-separated
//     [1] bit 0: attachments are files on disk (read in 4 KiB chunks) instead of `Data`, and the body is
//         also built through `encodeRequest` with a streaming threshold of 0 (a temporary body file)
//     [2] in file mode, how many filler bytes (4096 minus 0...63) come before the attachment's bytes, so
//         a boundary can straddle the 4096-byte chunk edge
//     [3] in file mode, the filler byte (its value mod 128)
//   token 1: boundary candidates separated by `,`, drawn in order instead of random boundaries (then random
//     ones); bytes outside the RFC 2046 boundary alphabet are mapped into it. Empty: random boundaries only.
//   then the fields, in order: key token, value token. A value token is
//     `@` followed by three tokens: filename, MIME type (empty: inferred from the filename), bytes;
//     `^` followed by one token: `Data` (a file part named after its field);
//     `[` items up to `]` (an item is `@`, `^` or text), `{` text fields up to `}` (nested keys `a[b]`),
//     `n` null, `t` / `f` booleans, `#` and digits an integer, anything else a text field.
//
// Properties:
// - either a typed `ApiError.invalidRequest(.encoding)` is thrown, exactly when a name or filename has a
//   control character other than CR, LF and TAB, a MIME type is not printable ASCII, a file is part of a
//   multi-value comma-separated field, or 8 drawn boundaries all occur in the parts; or
// - the body parses back: `--B` (B = `Body.boundary`) occurs in no part's header or content, the boundary is
//   the first candidate that does not collide, the number of parts matches, each part's header and content
//   bytes are exact, names and filenames unquote to the input (CR and LF as %0D and %0A), the length the
//   streaming path announces equals the body size, and the streamed body parses back the same way.
import Foundation

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A parameters tree built from the input, encoded through `Encodable` in order.
private indirect enum Node: Encodable {
    case text(String)
    case int(Int)
    case bool(Bool)
    case null
    case data(Data)
    case attachment(Attachment)
    case array([Node])
    case object([(key: String, value: Node)])

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let entries):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in entries { try container.encode(value, forKey: Key(key)) }
        default:
            var single = encoder.singleValueContainer()
            switch self {
            case .text(let text): try single.encode(text)
            case .int(let number): try single.encode(number)
            case .bool(let flag): try single.encode(flag)
            case .data(let data): try single.encode(data)
            case .attachment(let attachment): try single.encode(attachment)
            default: try single.encodeNil()
            }
        }
    }
}

/// An attachment as read from the input, before it is turned into `Data` or a file.
private struct AttachmentInput {
    var filename: String
    var mimeType: String?
    var bytes: [UInt8]
}

/// Hands out the boundary candidates in order, then random boundaries.
private final class BoundarySource: @unchecked Sendable {
    let candidates: [String]
    private let lock = NSLock()
    private var next = 0

    init(_ candidates: [String]) { self.candidates = candidates }

    func reset() {
        lock.withLock { next = 0 }
    }

    func draw() -> String {
        lock.withLock {
            defer { next += 1 }
            return next < candidates.count ? candidates[next] : MultipartFormDataEncoder.randomBoundary()
        }
    }
}

/// RFC 2046 `bcharsnospace` without `,` (the candidate separator).
private let boundaryAlphabet = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_-./:=?".utf8)

private func boundaryCandidates(_ token: [UInt8]) -> [String] {
    token.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true).prefix(10).map { piece in
        let mapped = piece.prefix(70).map {
            boundaryAlphabet.contains($0) ? $0 : boundaryAlphabet[Int($0) % boundaryAlphabet.count]
        }
        return String(decoding: mapped, as: UTF8.self)
    }
}

/// Per-process directory for attachment files and streamed bodies.
private let scratchDirectory: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("CoreAPIFuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit {
        try? FileManager.default.removeItem(at: scratchDirectory)
    }
    return url
}()

// MARK: - Reading the input

private struct FieldReader {
    var tokens: FuzzTokens
    var fileMode: Bool
    var filler: [UInt8]
    var attachmentFiles: [URL] = []
    var budget = 48

    mutating func fields() -> [(key: String, value: Node)] {
        var entries: [(key: String, value: Node)] = []
        while !tokens.isAtEnd, budget > 0 {
            let key = tokens.nextString()
            let value = self.value(allowContainers: true)
            if !entries.contains(where: { $0.key == key }) {
                entries.append((key, value))
            }
        }
        return entries
    }

    private mutating func value(allowContainers: Bool) -> Node {
        budget -= 1
        let token = tokens.next()
        switch token {
        case [UInt8(ascii: "@")]:
            let filename = tokens.nextString()
            let mimeType = tokens.nextString()
            let input = AttachmentInput(
                filename: filename,
                mimeType: mimeType.isEmpty ? nil : mimeType,
                bytes: tokens.next()
            )
            return .attachment(attachment(input))
        case [UInt8(ascii: "^")]:
            return .data(Data(tokens.next()))
        case [UInt8(ascii: "[")] where allowContainers:
            var items: [Node] = []
            while !tokens.isAtEnd, budget > 0 {
                var lookahead = tokens
                if lookahead.next() == [UInt8(ascii: "]")] {
                    tokens = lookahead
                    break
                }
                items.append(value(allowContainers: false))
            }
            return .array(items)
        case [UInt8(ascii: "{")] where allowContainers:
            var entries: [(key: String, value: Node)] = []
            while !tokens.isAtEnd, budget > 0 {
                let keyBytes = tokens.next()
                if keyBytes == [UInt8(ascii: "}")] { break }
                budget -= 1
                let key = String(decoding: keyBytes, as: UTF8.self)
                let text = tokens.nextString()
                if !entries.contains(where: { $0.key == key }) {
                    entries.append((key, .text(text)))
                }
            }
            return .object(entries)
        case [UInt8(ascii: "n")]: return .null
        case [UInt8(ascii: "t")]: return .bool(true)
        case [UInt8(ascii: "f")]: return .bool(false)
        default:
            if token.first == UInt8(ascii: "#"), let number = Int(String(decoding: token.dropFirst(), as: UTF8.self)) {
                return .int(number)
            }
            return .text(String(decoding: token, as: UTF8.self))
        }
    }

    /// An in-memory attachment, or in file mode one backed by a file holding filler + bytes.
    private mutating func attachment(_ input: AttachmentInput) -> Attachment {
        guard fileMode else {
            return Attachment(data: Data(input.bytes), filename: input.filename, mimeType: input.mimeType)
        }
        let url = scratchDirectory.appendingPathComponent("attachment-\(attachmentFiles.count)")
        guard FileManager.default.createFile(atPath: url.path, contents: Data(filler + input.bytes)) else {
            fail("cannot write \(url.path)")
        }
        attachmentFiles.append(url)
        return Attachment(fileURL: url, filename: input.filename, mimeType: input.mimeType)
    }
}

// MARK: - The expected parts, computed independently of the encoder

private struct ExpectedPart {
    /// The name as it reads after unquoting: CR and LF as %0D and %0A.
    var displayName: String
    var displayFilename: String?
    var header: [UInt8]
    var content: [UInt8]
}

private struct Unencodable: Error {}

/// `text` as a quoted string per the encoder's documentation, or `nil` for a control character.
private func quote(_ text: String) -> String? {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x22: result += "\\\""
        case 0x5C: result += "\\\\"
        case 0x0D: result += "%0D"
        case 0x0A: result += "%0A"
        case 0x09: result += "\t"
        case 0..<0x20, 0x7F...0x9F: return nil
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// `text` with each CR and LF scalar written as %0D and %0A. Scalar by scalar, not by `Character`: a CR
/// followed by a combining mark (`"\r\u{0593}"`) is one `Character` that is not equal to `"\r"`.
private func display(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x0D: result += "%0D"
        case 0x0A: result += "%0A"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result
}

private func contentBytes(of attachment: Attachment) -> [UInt8] {
    switch attachment.content {
    case .data(let data): return Array(data)
    case .file(let url):
        guard let data = FileManager.default.contents(atPath: url.path) else { fail("cannot read \(url.path)") }
        return Array(data)
    }
}

private func expectedParts(
    _ fields: [(key: String, value: Node)],
    arrayEncoding: EncodingStrategy.Arrays
) throws -> [ExpectedPart] {
    // Flatten in encoding order: `null` dropped, nested objects as `key[sub]`, arrays by strategy.
    var flat: [(key: String, values: [Node])] = []
    func flatten(_ node: Node, key: String) throws {
        switch node {
        case .null: return
        case .object(let entries):
            for (subkey, value) in entries { try flatten(value, key: key + "[" + subkey + "]") }
        case .array(let items):
            let items = items.filter {
                if case .null = $0 { return false }
                return true
            }
            switch arrayEncoding {
            case .commaSeparated:
                // Items are scalars by construction (the reader does not nest containers in arrays).
                if !items.isEmpty { flat.append((key, items)) }
            case .brackets: for item in items { try flatten(item, key: key + "[]") }
            case .indexed: for (index, item) in items.enumerated() { try flatten(item, key: key + "[\(index)]") }
            case .repeatedKey: for item in items { try flatten(item, key: key) }
            }
        default:
            flat.append((key, [node]))
        }
    }
    for (key, value) in fields { try flatten(value, key: key) }

    return try flat.map { key, values in
        guard let name = quote(key) else { throw Unencodable() }
        let fileName: String
        let mimeType: String
        let content: [UInt8]
        switch (values.count, values.first) {
        case (1, .attachment(let attachment)?):
            (fileName, mimeType, content) = (attachment.filename, attachment.mimeType, contentBytes(of: attachment))
        case (1, .data(let data)?):
            (fileName, mimeType, content) = (key, "application/octet-stream", Array(data))
        default:
            let texts = try values.map { value -> String in
                switch value {
                case .text(let text): return text
                case .int(let number): return String(number)
                case .bool(let flag): return flag ? "true" : "false"
                default: throw Unencodable()
                }
            }
            return ExpectedPart(
                displayName: display(key),
                displayFilename: nil,
                header: Array("Content-Disposition: form-data; name=\(name)\r\n\r\n".utf8),
                content: Array(texts.joined(separator: ",").utf8)
            )
        }
        guard let quotedFilename = quote(fileName), !mimeType.isEmpty,
            mimeType.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        else { throw Unencodable() }
        let header =
            "Content-Disposition: form-data; name=\(name); filename=\(quotedFilename)\r\nContent-Type: \(mimeType)\r\n\r\n"
        return ExpectedPart(
            displayName: display(key),
            displayFilename: display(fileName),
            header: Array(header.utf8),
            content: content
        )
    }
}

// MARK: - Parsing the body back

private func firstRange(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Range<Int>? {
    guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
    var start = bytes.startIndex
    while start + pattern.count <= bytes.endIndex {
        if bytes[start] == pattern[0], bytes[start..<start + pattern.count].elementsEqual(pattern) {
            return start..<start + pattern.count
        }
        start += 1
    }
    return nil
}

private func contains(_ bytes: [UInt8], _ pattern: [UInt8]) -> Bool {
    firstRange(of: pattern, in: bytes[...]) != nil
}

/// Reads a quoted string starting at `index` (at the opening quote); returns the text and the index after it.
private func unquote(_ bytes: [UInt8], from index: Int) -> (text: String, end: Int)? {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    var result: [UInt8] = []
    var position = index + 1
    while position < bytes.count {
        switch bytes[position] {
        case UInt8(ascii: "\\"):
            guard position + 1 < bytes.count else { return nil }
            result.append(bytes[position + 1])
            position += 2
        case UInt8(ascii: "\""):
            return (String(decoding: result, as: UTF8.self), position + 1)
        default:
            result.append(bytes[position])
            position += 1
        }
    }
    return nil
}

/// Splits `body` at the delimiters of `boundary` and compares every part with the expectation.
private func checkBody(_ body: [UInt8], boundary: String, expected: [ExpectedPart], label: String) {
    let dash = Array("--\(boundary)".utf8)
    for (index, part) in expected.enumerated() {
        require(!contains(part.content, dash), "\(label): boundary \(boundary) occurs in the content of part \(index)")
        require(!contains(part.header, dash), "\(label): boundary \(boundary) occurs in the header of part \(index)")
    }
    let open = dash + Array("\r\n".utf8)
    let close = Array("\r\n".utf8) + dash + Array("--\r\n".utf8)
    require(body.starts(with: open), "\(label): the body does not start with --\(boundary)\\r\\n")
    require(body.count >= open.count + close.count - 2, "\(label): the body is too short")
    require(body.suffix(close.count).elementsEqual(close), "\(label): the body does not end with the close delimiter")

    // Part i runs from after its opening delimiter line up to the next CRLF + "--" + boundary.
    let delimiter = Array("\r\n".utf8) + dash
    var position = open.count
    var parts: [ArraySlice<UInt8>] = []
    while let range = firstRange(of: delimiter, in: body[position...]) {
        parts.append(body[position..<range.lowerBound])
        let after = body[range.upperBound...]
        if after.starts(with: Array("--\r\n".utf8)) {
            require(range.upperBound + 4 == body.count, "\(label): bytes after the close delimiter")
            break
        }
        require(after.starts(with: Array("\r\n".utf8)), "\(label): a delimiter not followed by CRLF")
        position = range.upperBound + 2
    }
    require(parts.count == expected.count, "\(label): \(parts.count) parts, expected \(expected.count)")

    for (index, (part, want)) in zip(parts, expected).enumerated() {
        guard let headerEnd = firstRange(of: Array("\r\n\r\n".utf8), in: part) else {
            fail("\(label): part \(index) has no blank line")
        }
        let header = Array(part[part.startIndex..<headerEnd.upperBound])
        let content = part[headerEnd.upperBound...]
        require(
            header == want.header,
            "\(label): part \(index) header \(String(decoding: header, as: UTF8.self).debugDescription), expected \(String(decoding: want.header, as: UTF8.self).debugDescription)"
        )
        require(
            content.elementsEqual(want.content),
            "\(label): part \(index) content differs (\(content.count) vs \(want.content.count) bytes)"
        )

        // Unquoting the name (and filename) gives the input back, CR and LF as %0D and %0A.
        let prefix = Array("Content-Disposition: form-data; name=".utf8)
        require(header.starts(with: prefix), "\(label): part \(index) header does not start with Content-Disposition")
        guard let (name, nameEnd) = unquote(header, from: prefix.count) else { fail("\(label): unterminated name") }
        require(sameBytes(name, want.displayName), "\(label): name \(show(name)), expected \(show(want.displayName))")
        if let wantFilename = want.displayFilename {
            let filenamePrefix = Array("; filename=".utf8)
            require(header[nameEnd...].starts(with: filenamePrefix), "\(label): part \(index) has no filename")
            guard let (filename, _) = unquote(header, from: nameEnd + filenamePrefix.count) else {
                fail("\(label): unterminated filename")
            }
            require(
                sameBytes(filename, wantFilename),
                "\(label): filename \(show(filename)), expected \(show(wantFilename))"
            )
        }
    }
}

// MARK: - Entry point

/// libFuzzer's entry point: one input, every property above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var tokens = FuzzTokens(data, size)
    let options = FuzzOptions(bytes: tokens.next())
    let arrayEncoding: EncodingStrategy.Arrays = [.repeatedKey, .brackets, .indexed, .commaSeparated][
        Int(options[0]) % 4
    ]
    let fileMode = options[1] & 1 == 1
    let source = BoundarySource(boundaryCandidates(tokens.next()))
    var reader = FieldReader(
        tokens: tokens,
        fileMode: fileMode,
        filler: [UInt8](repeating: options[3] % 128, count: 4096 - Int(options[2] % 64))
    )
    let fields = reader.fields()
    defer {
        for url in reader.attachmentFiles { try? FileManager.default.removeItem(at: url) }
    }
    let parameters = Node.object(fields)

    let expected: [ExpectedPart]?
    do {
        expected = try expectedParts(fields, arrayEncoding: arrayEncoding)
    } catch {
        expected = nil
    }

    // Which boundary the encoder should end up with: the first of up to 8 draws that occurs in no part.
    enum Outcome {
        case boundary(String?)  // nil: a random one
        case exhausted
    }
    var outcome = Outcome.exhausted
    if let expected {
        for draw in 0..<8 {
            guard draw < source.candidates.count else {
                outcome = .boundary(nil)
                break
            }
            let dash = Array("--\(source.candidates[draw])".utf8)
            if !expected.contains(where: { contains($0.header, dash) || contains($0.content, dash) }) {
                outcome = .boundary(source.candidates[draw])
                break
            }
        }
    }

    var encoder = MultipartFormDataEncoder(arrayEncoding: arrayEncoding, chunkSize: 4096)
    encoder.makeBoundary = { source.draw() }
    let body: MultipartFormDataEncoder.Body?
    do {
        body = try encoder.body(for: parameters)
    } catch ApiError.invalidRequest(.encoding(let message)) {
        if expected == nil { return 0 }
        guard case .exhausted = outcome else { fail("body(for:) threw \"\(message)\" for encodable parts") }
        return 0
    } catch {
        fail("body(for:) threw an unexpected error: \(error)")
    }
    guard let expected else { fail("body(for:) did not throw for parameters that cannot be encoded") }
    guard let body else {
        require(expected.isEmpty, "body(for:) returned nil, expected \(expected.count) parts")
        return 0
    }
    require(!expected.isEmpty, "body(for:) returned a body for no parts")

    switch outcome {
    case .exhausted:
        fail("body(for:) found boundary \(body.boundary) although every candidate collides")
    case .boundary(let want?):
        require(body.boundary == want, "boundary \(body.boundary), expected \(want)")
    case .boundary(nil):
        let hex = body.boundary.utf8.dropFirst(8)
        require(
            body.boundary.hasPrefix("CoreAPI-") && hex.count == 32
                && hex.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) },
            "random boundary \(body.boundary.debugDescription) is not CoreAPI- and 32 hex digits"
        )
    }
    require(body.contentType == "multipart/form-data; boundary=\(body.boundary)", "content type \(body.contentType)")
    checkBody(Array(body.data), boundary: body.boundary, expected: expected, label: "body(for:)")

    // The length the streaming path announces as Content-Length.
    guard let parts = try? encoder.parts(for: parameters) else { fail("parts(for:) threw after body(for:) succeeded") }
    let length = MultipartFormDataEncoder.length(of: parts, boundaryLength: body.boundary.utf8.count)
    require(length == Int64(body.data.count), "length(of:) = \(length), body has \(body.data.count) bytes")

    if fileMode {
        checkStreamed(encoder, parameters: parameters, source: source, expected: expected)
    }
    return 0
}

/// `encodeRequest` with a streaming threshold of 0 writes the body to a temporary file; it parses back too.
private func checkStreamed(
    _ encoder: MultipartFormDataEncoder,
    parameters: Node,
    source: BoundarySource,
    expected: [ExpectedPart]
) {
    var encoder = encoder
    encoder.streamingThreshold = 0
    encoder.temporaryDirectory = scratchDirectory
    source.reset()
    let request = ApiRequest(method: .post, url: URL(string: "https://example.com/upload")!)
    let encoded: ApiRequest
    do {
        encoded = try encoder.encodeRequest(parameters, in: request)
    } catch {
        fail("encodeRequest threw \(error) after body(for:) succeeded")
    }
    guard let file = encoded.body.file else { fail("encodeRequest with threshold 0 did not stream") }
    defer { try? FileManager.default.removeItem(at: file.url) }
    guard let bytes = FileManager.default.contents(atPath: file.url.path) else { fail("cannot read the body file") }
    require(Int64(bytes.count) == file.length, "body file has \(bytes.count) bytes, announced \(file.length)")
    require(
        encoded.headers["Content-Length"] == String(bytes.count),
        "Content-Length \(encoded.headers["Content-Length"] ?? "nil"), file \(bytes.count)"
    )
    let contentType = encoded.headers["Content-Type"] ?? ""
    let prefix = "multipart/form-data; boundary="
    require(contentType.hasPrefix(prefix), "streamed Content-Type \(contentType)")
    checkBody(
        Array(bytes),
        boundary: String(contentType.dropFirst(prefix.count)),
        expected: expected,
        label: "encodeRequest"
    )
}
