import Foundation
import Testing

@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Profile: Encodable, Sendable {
    var name: String
    var age: Int
    var admin: Bool
    var score: Double
    var at: Date
}

/// Declared out of order: parts follow this order, not the sorted one.
private struct Order: Encodable, Sendable {
    var zeta: String
    var alpha: String
    var mid: Int
}

private struct Flags: Encodable, Sendable {
    var on: Bool
    var off: Bool
}

private struct When: Encodable, Sendable {
    var at: Date
}

private struct Tags: Encodable, Sendable {
    var tags: [String]
    var id: Int
}

private struct Address: Encodable, Sendable {
    var zip: String
    var city: String
}

private struct User: Encodable, Sendable {
    var name: String
    var address: Address
}

private struct Home: Encodable, Sendable {
    var postCode: String
}

private struct Keys: Encodable, Sendable {
    var userID: Int
    var homeAddress: Home
}

private struct Upload: Encodable, Sendable {
    var title: String
    var file: CoreAPI.Attachment
    var note: String
}

private struct Uploads: Encodable, Sendable {
    var files: [CoreAPI.Attachment]
    var after: String
}

private struct Blob: Encodable, Sendable {
    var blob: Data
}

private struct Optionals: Encodable, Sendable {
    var a: String?
    var b: Int?
    var c: String
}

/// Encodes `a` with `encodeNil(forKey:)` and `b` as `Optional.none`.
private struct ExplicitNil: Encodable, Sendable {
    var c: String?

    enum CodingKeys: String, CodingKey {
        case a, b, c
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeNil(forKey: .a)
        try container.encode(Int?.none, forKey: .b)
        try container.encode(c, forKey: .c)
    }
}

private struct AllNil: Encodable, Sendable {
    var a: String?
    var file: CoreAPI.Attachment?
}

private struct Number: Encodable, Sendable {
    var value: Double
}

private struct Empty: Encodable, Sendable {}

private struct Nothing: Encodable, Sendable {
    func encode(to encoder: any Encoder) throws {}
}

private let fixedDate = Date(timeIntervalSince1970: 1_700_000_000.123)

/// A boundary that the tests place inside parts.
private let collidingBoundary = "CoreAPI-" + String(repeating: "c0", count: 16)
/// A boundary that occurs in no part.
private let cleanBoundary = "CoreAPI-0123456789abcdef0123456789abcdef"

/// One expected part; names and filenames are given as they must appear between the quotes.
private enum ExpectedPart: Sendable {
    case text(String, String)
    case file(String, filename: String, type: String, Data)
}

/// The exact multipart body of `parts` with `boundary`.
private func multipartBody(_ boundary: String, _ parts: [ExpectedPart]) -> Data {
    var body = Data()
    for part in parts {
        body.append(Data("--\(boundary)\r\n".utf8))
        switch part {
        case .text(let name, let value):
            body.append(Data("Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)".utf8))
        case .file(let name, let filename, let type, let data):
            let header =
                "Content-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(type)\r\n\r\n"
            body.append(Data(header.utf8))
            body.append(data)
        }
        body.append(Data("\r\n".utf8))
    }
    body.append(Data("--\(boundary)--\r\n".utf8))
    return body
}

/// `count` bytes of a xorshift sequence: no period that lines up with a chunk.
private func patternBytes(_ count: Int, seed: UInt32 = 0x9E37_79B9) -> Data {
    var state = seed
    var bytes = [UInt8]()
    bytes.reserveCapacity(count)
    for _ in 0..<count {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        bytes.append(UInt8(truncatingIfNeeded: state >> 11))
    }
    return Data(bytes)
}

/// Boundaries handed out in order; the last one repeats.
private final class BoundarySequence: Sendable {
    private let state: LockedValue<(boundaries: [String], calls: Int)>

    init(_ boundaries: [String]) {
        state = LockedValue((boundaries, 0))
    }

    func next() -> String {
        state.withLock { state in
            let boundary = state.boundaries[min(state.calls, state.boundaries.count - 1)]
            state.calls += 1
            return boundary
        }
    }

    var calls: Int { state.current.calls }
}

/// A fresh directory, removed when the test ends.
private final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "CoreAPIMultipartTests-\(UUID().uuidString)",
            isDirectory: true
        )
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `data` to a file named `name` in the directory.
    func file(_ name: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// The names of the files in the directory.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path)
    }
}

/// One multipart vector: parameters, an encoder and the exact parts.
private struct MultipartVector: Sendable, CustomTestStringConvertible {
    var name: String
    var parameters: any Encodable & Sendable
    var encoder = MultipartFormDataEncoder()
    var expected: [ExpectedPart]

    var testDescription: String { name }
}

private let sampleAttachment = CoreAPI.Attachment(
    data: Data([0x00, 0x01, 0xFF, 0x0D, 0x0A, 0x2D, 0x2D]),
    filename: "a.bin",
    mimeType: "application/x-custom"
)
private let pngAttachment = CoreAPI.Attachment(data: Data("png".utf8), filename: "x.png")
private let jsonAttachment = CoreAPI.Attachment(data: Data("{}".utf8), filename: "y.json")

@Suite struct MultipartFormDataEncoderTests {
    private static func encodingReason(_ error: ApiError?) -> String? {
        if case .invalidRequest(.encoding(let text)) = error { text } else { nil }
    }

    private static func unreadablePath(_ error: ApiError?) -> String? {
        if case .invalidRequest(.unreadableFile(let path)) = error { path } else { nil }
    }

    private static let contentTypePrefix = "multipart/form-data; boundary="

    private func request(_ method: HTTPMethod, contentType: String? = nil) throws -> ApiRequest {
        var request = ApiRequest(url: try #require(URL(string: "https://h/upload?keep=1")))
        request.method = method
        if let contentType { request.headers.set(contentType, for: "Content-Type") }
        return request
    }

    /// The boundary in a request's `Content-Type`.
    private func boundary(of request: ApiRequest) throws -> String {
        let contentType = try #require(request.headers["Content-Type"])
        try #require(contentType.hasPrefix(Self.contentTypePrefix))
        return String(contentType.dropFirst(Self.contentTypePrefix.count))
    }

    private func encoder(
        boundaries: BoundarySequence,
        streamingThreshold: Int64 = 10 * 1024 * 1024,
        temporaryDirectory: URL = FileManager.default.temporaryDirectory,
        chunkSize: Int = 4096
    ) -> MultipartFormDataEncoder {
        var encoder = MultipartFormDataEncoder(
            streamingThreshold: streamingThreshold,
            temporaryDirectory: temporaryDirectory,
            chunkSize: chunkSize
        )
        encoder.makeBoundary = { boundaries.next() }
        return encoder
    }

    // MARK: - Bodies

    private static let vectors: [MultipartVector] = [
        MultipartVector(
            name: "text fields in declaration order",
            parameters: Profile(name: "Ann Lee", age: 42, admin: true, score: 1.5, at: fixedDate),
            expected: [
                .text("name", "Ann Lee"), .text("age", "42"), .text("admin", "true"), .text("score", "1.5"),
                .text("at", "2023-11-14T22:13:20Z"),
            ]
        ),
        MultipartVector(
            name: "parts are not sorted",
            parameters: Order(zeta: "z", alpha: "a", mid: 3),
            expected: [.text("zeta", "z"), .text("alpha", "a"), .text("mid", "3")]
        ),
        MultipartVector(
            name: "numeric booleans",
            parameters: Flags(on: true, off: false),
            encoder: MultipartFormDataEncoder(boolEncoding: .numeric),
            expected: [.text("on", "1"), .text("off", "0")]
        ),
        MultipartVector(
            name: "ISO 8601 dates with fractional seconds",
            parameters: When(at: fixedDate),
            encoder: MultipartFormDataEncoder(dateEncoding: .iso8601WithFractionalSeconds),
            expected: [.text("at", "2023-11-14T22:13:20.123Z")]
        ),
        MultipartVector(
            name: "seconds since 1970",
            parameters: When(at: fixedDate),
            encoder: MultipartFormDataEncoder(dateEncoding: .secondsSince1970),
            expected: [.text("at", "1700000000.123")]
        ),
        MultipartVector(
            name: "milliseconds since 1970",
            parameters: When(at: fixedDate),
            encoder: MultipartFormDataEncoder(dateEncoding: .millisecondsSince1970),
            expected: [.text("at", "1700000000123")]
        ),
        MultipartVector(
            name: "custom dates",
            parameters: When(at: fixedDate),
            encoder: MultipartFormDataEncoder(dateEncoding: .custom { "d/\(Int($0.timeIntervalSince1970))" }),
            expected: [.text("at", "d/1700000000")]
        ),
        MultipartVector(
            name: "arrays as repeated fields (default)",
            parameters: Tags(tags: ["a", "b c"], id: 1),
            expected: [.text("tags", "a"), .text("tags", "b c"), .text("id", "1")]
        ),
        MultipartVector(
            name: "bracket arrays",
            parameters: Tags(tags: ["a", "b c"], id: 1),
            encoder: MultipartFormDataEncoder(arrayEncoding: .brackets),
            expected: [.text("tags[]", "a"), .text("tags[]", "b c"), .text("id", "1")]
        ),
        MultipartVector(
            name: "indexed arrays",
            parameters: Tags(tags: ["a", "b c"], id: 1),
            encoder: MultipartFormDataEncoder(arrayEncoding: .indexed),
            expected: [.text("tags[0]", "a"), .text("tags[1]", "b c"), .text("id", "1")]
        ),
        MultipartVector(
            name: "comma-separated arrays in one field",
            parameters: Tags(tags: ["a", "b c"], id: 1),
            encoder: MultipartFormDataEncoder(arrayEncoding: .commaSeparated),
            expected: [.text("tags", "a,b c"), .text("id", "1")]
        ),
        MultipartVector(
            name: "empty arrays give no part",
            parameters: Tags(tags: [], id: 1),
            expected: [.text("id", "1")]
        ),
        MultipartVector(
            name: "nil array elements give no part",
            parameters: ["v": [1, nil, 2] as [Int?]],
            expected: [.text("v", "1"), .text("v", "2")]
        ),
        MultipartVector(
            name: "nested objects",
            parameters: User(name: "Ann", address: Address(zip: "75001", city: "Paris")),
            expected: [.text("name", "Ann"), .text("address[zip]", "75001"), .text("address[city]", "Paris")]
        ),
        MultipartVector(
            name: "snake_case keys",
            parameters: Keys(userID: 7, homeAddress: Home(postCode: "1")),
            encoder: MultipartFormDataEncoder(keyEncoding: .convertToSnakeCase),
            expected: [.text("user_id", "7"), .text("home_address[post_code]", "1")]
        ),
        MultipartVector(
            name: "kebab-case keys",
            parameters: Keys(userID: 7, homeAddress: Home(postCode: "1")),
            encoder: MultipartFormDataEncoder(keyEncoding: .convertToKebabCase),
            expected: [.text("user-id", "7"), .text("home-address[post-code]", "1")]
        ),
        MultipartVector(
            name: "an attachment between text fields",
            parameters: Upload(title: "t", file: sampleAttachment, note: "n"),
            expected: [
                .text("title", "t"),
                .file(
                    "file",
                    filename: "a.bin",
                    type: "application/x-custom",
                    Data([0x00, 0x01, 0xFF, 0x0D, 0x0A, 0x2D, 0x2D])
                ),
                .text("note", "n"),
            ]
        ),
        MultipartVector(
            name: "an attachment's MIME type inferred from its filename",
            parameters: ["doc": CoreAPI.Attachment(data: Data("hello".utf8), filename: "notes.txt")],
            expected: [.file("doc", filename: "notes.txt", type: "text/plain", Data("hello".utf8))]
        ),
        MultipartVector(
            name: "attachment arrays as several parts with the same name",
            parameters: Uploads(files: [pngAttachment, jsonAttachment], after: "z"),
            expected: [
                .file("files", filename: "x.png", type: "image/png", Data("png".utf8)),
                .file("files", filename: "y.json", type: "application/json", Data("{}".utf8)),
                .text("after", "z"),
            ]
        ),
        MultipartVector(
            name: "attachment arrays with brackets",
            parameters: Uploads(files: [pngAttachment, jsonAttachment], after: "z"),
            encoder: MultipartFormDataEncoder(arrayEncoding: .brackets),
            expected: [
                .file("files[]", filename: "x.png", type: "image/png", Data("png".utf8)),
                .file("files[]", filename: "y.json", type: "application/json", Data("{}".utf8)),
                .text("after", "z"),
            ]
        ),
        MultipartVector(
            name: "an empty attachment array gives no part",
            parameters: Uploads(files: [], after: "z"),
            expected: [.text("after", "z")]
        ),
        MultipartVector(
            name: "a nested attachment",
            parameters: ["outer": ["file": pngAttachment]],
            expected: [.file("outer[file]", filename: "x.png", type: "image/png", Data("png".utf8))]
        ),
        MultipartVector(
            name: "a Data property is a file part named after the field",
            parameters: Blob(blob: Data([0x00, 0xFF, 0x0D, 0x0A])),
            expected: [
                .file("blob", filename: "blob", type: "application/octet-stream", Data([0x00, 0xFF, 0x0D, 0x0A]))
            ]
        ),
        MultipartVector(
            name: "an empty Data property is an empty file part",
            parameters: Blob(blob: Data()),
            expected: [.file("blob", filename: "blob", type: "application/octet-stream", Data())]
        ),
        MultipartVector(
            name: "absent optionals give no part",
            parameters: Optionals(a: nil, b: 2, c: "x"),
            expected: [.text("b", "2"), .text("c", "x")]
        ),
        MultipartVector(
            name: "explicit nil gives no part",
            parameters: ExplicitNil(c: "x"),
            expected: [.text("c", "x")]
        ),
        MultipartVector(
            name: "text values are sent raw",
            parameters: ["v": "a\"b\\c\r\nd é;%20+"],
            expected: [.text("v", "a\"b\\c\r\nd é;%20+")]
        ),
        MultipartVector(
            name: "an empty text value",
            parameters: ["v": ""],
            expected: [.text("v", "")]
        ),
        MultipartVector(
            name: "URL values as absolute strings",
            parameters: ["link": URL(string: "https://h/a?b=c")!],
            expected: [.text("link", "https://h/a?b=c")]
        ),
    ]

    @Test(arguments: vectors)
    private func bodyVectors(vector: MultipartVector) throws {
        let body = try #require(try vector.encoder.body(for: vector.parameters))
        let expected = multipartBody(body.boundary, vector.expected)
        #expect(body.data == expected, "\(String(decoding: body.data, as: UTF8.self))")
    }

    // MARK: - Names, filenames and MIME types

    @Test(arguments: [
        ("a\"b", #"a\"b"#), ("a\\b", #"a\\b"#), ("a\rb", "a%0Db"), ("a\nb", "a%0Ab"), ("a\r\nb", "a%0D%0Ab"),
        ("é;x", "é;x"), ("a\tb", "a\tb"), ("a b=c", "a b=c"), ("😀%", "😀%"), ("\\\"", #"\\\""#),
    ])
    func fieldNamesAreQuotedAndEscaped(raw: String, escaped: String) throws {
        let body = try #require(try MultipartFormDataEncoder().body(for: [raw: "v"]))
        #expect(body.data == multipartBody(body.boundary, [.text(escaped, "v")]))
    }

    @Test(arguments: [
        ("a\"b.txt", #"a\"b.txt"#), ("a\\b.txt", #"a\\b.txt"#), ("a\rb.txt", "a%0Db.txt"),
        ("a\nb.txt", "a%0Ab.txt"), ("é;x.txt", "é;x.txt"), ("a\tb.txt", "a\tb.txt"),
    ])
    func filenamesAreQuotedAndEscaped(raw: String, escaped: String) throws {
        let attachment = CoreAPI.Attachment(data: Data("x".utf8), filename: raw, mimeType: "text/plain")
        let body = try #require(try MultipartFormDataEncoder().body(for: ["f": attachment]))
        #expect(
            body.data
                == multipartBody(body.boundary, [.file("f", filename: escaped, type: "text/plain", Data("x".utf8))])
        )
    }

    @Test(arguments: ["\u{0}", "\u{1}", "\u{8}", "\u{B}", "\u{C}", "\u{1B}", "\u{1F}", "\u{7F}"])
    func controlCharactersInFieldNamesAreEncodingErrors(control: String) {
        let error = #expect(throws: ApiError.self) { try MultipartFormDataEncoder().body(for: ["a\(control)b": "v"]) }
        #expect(Self.encodingReason(error) != nil)
    }

    @Test(arguments: ["\u{0}", "\u{1}", "\u{8}", "\u{B}", "\u{C}", "\u{1B}", "\u{1F}", "\u{7F}"])
    func controlCharactersInFilenamesAreEncodingErrors(control: String) {
        let attachment = CoreAPI.Attachment(data: Data("x".utf8), filename: "a\(control)b.txt")
        let error = #expect(throws: ApiError.self) { try MultipartFormDataEncoder().body(for: ["f": attachment]) }
        #expect(Self.encodingReason(error) != nil)
    }

    /// The type documents that every control character other than TAB, CR and LF is a typed error;
    /// C1 controls (U+0080–U+009F, such as NEL) are control characters too.
    @Test(arguments: ["\u{80}", "\u{85}", "\u{9F}"])
    func c1ControlCharactersInNamesAndFilenamesAreEncodingErrors(control: String) {
        let name = #expect(throws: ApiError.self) { try MultipartFormDataEncoder().body(for: ["a\(control)b": "v"]) }
        #expect(Self.encodingReason(name) != nil)
        let attachment = CoreAPI.Attachment(data: Data("x".utf8), filename: "a\(control)b.txt")
        let filename = #expect(throws: ApiError.self) { try MultipartFormDataEncoder().body(for: ["f": attachment]) }
        #expect(Self.encodingReason(filename) != nil)
    }

    @Test(arguments: [
        "text/plain\r\nX-Injected: 1", "text/plain\n", "text/plain\r", "text/\u{0}plain", "text/plain\u{7F}",
        "tëxt/plain", "",
    ])
    func mimeTypesThatAreNotPrintableASCIIAreEncodingErrors(mimeType: String) {
        let attachment = CoreAPI.Attachment(data: Data("x".utf8), filename: "a.txt", mimeType: mimeType)
        let error = #expect(throws: ApiError.self) { try MultipartFormDataEncoder().body(for: ["f": attachment]) }
        #expect(Self.encodingReason(error) != nil)
    }

    @Test(arguments: [
        ("photo.png", "image/png"), ("PHOTO.JPG", "image/jpeg"), ("a.jpeg", "image/jpeg"),
        ("data.json", "application/json"),
        ("doc.pdf", "application/pdf"), ("notes.txt", "text/plain"), ("archive.tar.gz", "application/gzip"),
        ("x.unknownext", "application/octet-stream"), ("README", "application/octet-stream"),
        (".hidden", "application/octet-stream"), ("trailing.", "application/octet-stream"),
        ("", "application/octet-stream"),
    ])
    func mimeTypesAreInferredFromTheExtension(filename: String, mimeType: String) {
        #expect(CoreAPI.Attachment.mimeType(forFilename: filename) == mimeType)
        #expect(CoreAPI.Attachment(data: Data(), filename: filename).mimeType == mimeType)
        let file = CoreAPI.Attachment(
            fileURL: URL(fileURLWithPath: "/tmp/dir.png/\(filename.isEmpty ? "x" : filename)")
        )
        #expect(file.filename == (filename.isEmpty ? "x" : filename))
        #expect(file.mimeType == (filename.isEmpty ? "application/octet-stream" : mimeType))
    }

    @Test func explicitFilenameAndMimeTypeOverrideTheURL() {
        let url = URL(fileURLWithPath: "/tmp/photo.png")
        let renamed = CoreAPI.Attachment(fileURL: url, filename: "data.json")
        #expect(renamed.filename == "data.json")
        #expect(renamed.mimeType == "application/json")
        let typed = CoreAPI.Attachment(fileURL: url, mimeType: "image/x-custom")
        #expect(typed.filename == "photo.png")
        #expect(typed.mimeType == "image/x-custom")
        #expect(typed.content == .file(url))
    }

    @Test func filesCannotBePartOfACommaSeparatedArray() {
        let encoder = MultipartFormDataEncoder(arrayEncoding: .commaSeparated)
        let error = #expect(throws: ApiError.self) {
            try encoder.body(for: Uploads(files: [pngAttachment, jsonAttachment], after: "z"))
        }
        #expect(Self.encodingReason(error) != nil)
    }

    // MARK: - Files

    @Test func fileAttachmentsAreReadFromDisk() throws {
        let directory = try TemporaryDirectory()
        let bytes = patternBytes(1000)
        let photo = try directory.file("my photo é.PNG", bytes)
        let empty = try directory.file("empty.txt", Data())
        let parameters = Uploads(
            files: [CoreAPI.Attachment(fileURL: photo), CoreAPI.Attachment(fileURL: empty)],
            after: "z"
        )
        let body = try #require(try MultipartFormDataEncoder().body(for: parameters))
        let expected = multipartBody(
            body.boundary,
            [
                .file("files", filename: "my photo é.PNG", type: "image/png", bytes),
                .file("files", filename: "empty.txt", type: "text/plain", Data()),
                .text("after", "z"),
            ]
        )
        #expect(body.data == expected)
    }

    @Test func aFileLargerThanAChunkIsCopiedWhole() throws {
        let directory = try TemporaryDirectory()
        let bytes = patternBytes(3 * 4096 + 17)
        let file = try directory.file("big.bin", bytes)
        let encoder = MultipartFormDataEncoder(chunkSize: 4096)
        let body = try #require(try encoder.body(for: ["f": CoreAPI.Attachment(fileURL: file)]))
        let expected = multipartBody(
            body.boundary,
            [.file("f", filename: "big.bin", type: "application/octet-stream", bytes)]
        )
        #expect(body.data == expected)
    }

    @Test func theChunkSizeIsAtLeast4096() {
        #expect(MultipartFormDataEncoder(chunkSize: 1).chunkSize == 4096)
        #expect(MultipartFormDataEncoder(chunkSize: 5000).chunkSize == 5000)
    }

    @Test func unreadableAttachmentsAreTypedErrors() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.url.appendingPathComponent("missing.png")
        let folder = directory.url.appendingPathComponent("folder.png", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        for url in [missing, folder] {
            let parameters = Upload(title: "t", file: CoreAPI.Attachment(fileURL: url), note: "n")
            let fromBody = #expect(throws: ApiError.self) { try MultipartFormDataEncoder().body(for: parameters) }
            #expect(Self.unreadablePath(fromBody) == url.path)
            let fromEncode = #expect(throws: ApiError.self) {
                try MultipartFormDataEncoder().encode(parameters, in: try request(.post))
            }
            #expect(Self.unreadablePath(fromEncode) == url.path)
            let fromEncodeRequest = #expect(throws: ApiError.self) {
                try MultipartFormDataEncoder().encodeRequest(parameters, in: try request(.post))
            }
            #expect(Self.unreadablePath(fromEncodeRequest) == url.path)
        }
    }

    /// A symbolic link to a readable regular file is a readable regular file once followed, as
    /// `FileHandle(forReadingFrom:)` follows it; only the link's target decides.
    @Test func aSymbolicLinkToAReadableFileIsUploaded() throws {
        let directory = try TemporaryDirectory()
        let bytes = patternBytes(100)
        let target = try directory.file("real.json", bytes)
        let link = directory.url.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let body = try #require(try MultipartFormDataEncoder().body(for: ["f": CoreAPI.Attachment(fileURL: link)]))
        #expect(body.data == multipartBody(body.boundary, [.file("f", filename: "link.png", type: "image/png", bytes)]))
    }

    @Test func aSymbolicLinkToADirectoryIsUnreadable() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("folder", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let link = directory.url.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        let error = #expect(throws: ApiError.self) {
            try MultipartFormDataEncoder().body(for: ["f": CoreAPI.Attachment(fileURL: link)])
        }
        #expect(Self.unreadablePath(error) == link.path)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDoublesAreEncodingErrors(value: Double) throws {
        let error = #expect(throws: ApiError.self) { try MultipartFormDataEncoder().body(for: Number(value: value)) }
        #expect(Self.encodingReason(error)?.hasPrefix("value") == true)
        let fromEncode = #expect(throws: ApiError.self) {
            try MultipartFormDataEncoder().encode(Number(value: value), in: try request(.post))
        }
        #expect(Self.encodingReason(fromEncode) != nil)
    }

    // MARK: - Boundary

    @Test func theBoundaryIsCoreAPIAnd32LowercaseHexDigitsAndChangesEveryTime() throws {
        var seen = Set<String>()
        for _ in 0..<50 {
            let body = try #require(try MultipartFormDataEncoder().body(for: ["k": "v"]))
            #expect(body.boundary.hasPrefix("CoreAPI-"))
            let digits = body.boundary.dropFirst("CoreAPI-".count)
            #expect(digits.count == 32)
            #expect(digits.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) }, "\(body.boundary)")
            #expect(body.contentType == "multipart/form-data; boundary=\(body.boundary)")
            #expect(body.data == multipartBody(body.boundary, [.text("k", "v")]))
            seen.insert(body.boundary)
        }
        #expect(seen.count == 50)
    }

    /// 32 hex digits carry 128 bits only if every digit is uniform: over 1000 draws each position
    /// shows all 16 digits (the chance that one does not is about 1e-25).
    @Test func everyBoundaryDigitIsRandom() {
        let draws = (0..<1000).map { _ in Array(MultipartFormDataEncoder().makeBoundary().utf8.dropFirst(8)) }
        #expect(draws.allSatisfy { $0.count == 32 })
        for position in 0..<32 {
            let digits = Set(draws.map { $0[position] })
            #expect(digits.count == 16, "position \(position): \(digits.count) digits")
        }
    }

    @Test(arguments: ["attachment data", "text value", "field name", "filename", "file content"])
    func aBoundaryThatOccursInAPartIsReplaced(location: String) throws {
        let directory = try TemporaryDirectory()
        let inside = "x\r\n--\(collidingBoundary)\r\ny"
        let parameters: any Encodable & Sendable
        let expected: [ExpectedPart]
        switch location {
        case "attachment data":
            parameters = ["f": CoreAPI.Attachment(data: Data(inside.utf8), filename: "a.txt")]
            expected = [.file("f", filename: "a.txt", type: "text/plain", Data(inside.utf8))]
        case "text value":
            parameters = ["v": inside]
            expected = [.text("v", inside)]
        case "field name":
            parameters = ["--\(collidingBoundary)": "v"]
            expected = [.text("--\(collidingBoundary)", "v")]
        case "filename":
            parameters = ["f": CoreAPI.Attachment(data: Data("x".utf8), filename: "--\(collidingBoundary).txt")]
            expected = [.file("f", filename: "--\(collidingBoundary).txt", type: "text/plain", Data("x".utf8))]
        default:
            let file = try directory.file("c.txt", Data(inside.utf8))
            parameters = ["f": CoreAPI.Attachment(fileURL: file)]
            expected = [.file("f", filename: "c.txt", type: "text/plain", Data(inside.utf8))]
        }
        let boundaries = BoundarySequence([collidingBoundary, cleanBoundary])
        let body = try #require(try encoder(boundaries: boundaries).body(for: parameters))
        #expect(body.boundary == cleanBoundary)
        #expect(boundaries.calls == 2)
        #expect(body.data == multipartBody(cleanBoundary, expected))
    }

    /// The delimiter `--B` is 42 bytes; chunk edges are at multiples of 4096.
    @Test(arguments: [0, 4096 - 42, 4096 - 41, 4096 - 1, 4096, 2 * 4096 - 5, 3 * 4096 + 17 - 42])
    func aBoundaryInAFileIsFoundAcrossChunkEdges(offset: Int) throws {
        let directory = try TemporaryDirectory()
        var bytes = patternBytes(3 * 4096 + 17)
        let delimiter = Data("--\(collidingBoundary)".utf8)
        bytes.replaceSubrange(offset..<(offset + delimiter.count), with: delimiter)
        let file = try directory.file("big.bin", bytes)
        let boundaries = BoundarySequence([collidingBoundary, cleanBoundary])
        let body = try #require(try encoder(boundaries: boundaries).body(for: ["f": CoreAPI.Attachment(fileURL: file)]))
        #expect(body.boundary == cleanBoundary)
        #expect(boundaries.calls == 2)
        let expected = multipartBody(
            cleanBoundary,
            [.file("f", filename: "big.bin", type: "application/octet-stream", bytes)]
        )
        #expect(body.data == expected)
    }

    @Test func aBoundaryThatAlwaysCollidesIsAnEncodingError() throws {
        let boundaries = BoundarySequence([collidingBoundary])
        let error = #expect(throws: ApiError.self) {
            try encoder(boundaries: boundaries).body(for: ["v": "--\(collidingBoundary)"])
        }
        #expect(Self.encodingReason(error) != nil)
    }

    // MARK: - encode(_:in:)

    @Test(arguments: [HTTPMethod.post, .put, .patch])
    func encodeSetsTheContentTypeAndTheBody(method: HTTPMethod) throws {
        let original = try request(method, contentType: "application/json")
        let encoded = try MultipartFormDataEncoder().encode(
            Upload(title: "t", file: pngAttachment, note: "n"),
            in: original
        )
        let boundary = try boundary(of: encoded)
        #expect(encoded.headers["Content-Type"] == "multipart/form-data; boundary=\(boundary)")
        let expected = multipartBody(
            boundary,
            [
                .text("title", "t"), .file("file", filename: "x.png", type: "image/png", Data("png".utf8)),
                .text("note", "n"),
            ]
        )
        #expect(encoded.body.data == expected)
        #expect(encoded.url == original.url)
        #expect(encoded.method.rawValue == method.rawValue)
    }

    @Test(arguments: [HTTPMethod.get, .head])
    func getAndHeadRejectParameters(method: HTTPMethod) throws {
        let encoder = MultipartFormDataEncoder()
        let fromEncode = #expect(throws: ApiError.self) { try encoder.encode(["k": "v"], in: try request(method)) }
        #expect(Self.encodingReason(fromEncode) != nil)
        let fromEncodeRequest = #expect(throws: ApiError.self) {
            try encoder.encodeRequest(["k": "v"], in: try request(method))
        }
        #expect(Self.encodingReason(fromEncodeRequest) != nil)
    }

    @Test(arguments: [HTTPMethod.post, .get, .head])
    func emptyParametersLeaveTheRequestUnchanged(method: HTTPMethod) throws {
        let directory = try TemporaryDirectory()
        let encoder = MultipartFormDataEncoder(streamingThreshold: 0, temporaryDirectory: directory.url)
        let values: [any Encodable & Sendable] = [
            Empty(), Nothing(), AllNil(), ExplicitNil(c: nil), [String: Int](), Uploads?.none,
        ]
        let original = try request(method)
        for value in values {
            #expect(try encoder.body(for: value) == nil)
            #expect(try encoder.encode(value, in: original) == original, "\(value)")
            let encoded = try encoder.encodeRequest(value, in: original)
            #expect(encoded == original, "\(value)")
            #expect(encoded.body.file == nil)
        }
        #expect(try directory.contents().isEmpty)
    }

    // MARK: - Streaming

    @Test func largeBodiesAreStreamedFromATemporaryFile() throws {
        let directory = try TemporaryDirectory()
        let sources = try TemporaryDirectory()
        let bytes = patternBytes(3 * 4096 + 17)
        let file = try sources.file("big.bin", bytes)
        let parameters = Upload(title: "t", file: CoreAPI.Attachment(fileURL: file), note: "n")
        let encoder = MultipartFormDataEncoder(
            streamingThreshold: 0,
            temporaryDirectory: directory.url,
            chunkSize: 4096
        )
        let encoded = try encoder.encodeRequest(parameters, in: try request(.post))
        let bodyFile = try #require(encoded.body.file)
        #expect(bodyFile.isTemporary)
        #expect(
            bodyFile.url.deletingLastPathComponent().standardizedFileURL.path == directory.url.standardizedFileURL.path
        )
        #expect(try directory.contents() == [bodyFile.url.lastPathComponent])

        let boundary = try boundary(of: encoded)
        let written = try Data(contentsOf: bodyFile.url)
        let expected = multipartBody(
            boundary,
            [
                .text("title", "t"), .file("file", filename: "big.bin", type: "application/octet-stream", bytes),
                .text("note", "n"),
            ]
        )
        #expect(written == expected)
        let inMemory = try #require(
            try self.encoder(boundaries: BoundarySequence([boundary])).body(for: parameters)
        )
        #expect(written == inMemory.data)

        let size = try FileManager.default.attributesOfItem(atPath: bodyFile.url.path)[.size] as? NSNumber
        #expect(bodyFile.length == Int64(written.count))
        #expect(size?.int64Value == bodyFile.length)
        #expect(encoded.headers["Content-Length"] == String(bodyFile.length))
        #expect(encoded.body.data == nil)
        #expect(encoded.url.absoluteString == "https://h/upload?keep=1")

        encoded.discardTemporaryFile()
        #expect(!FileManager.default.fileExists(atPath: bodyFile.url.path))
        #expect(try directory.contents().isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test func streamingCopiesFilesLargerThanTheWriteBuffer() throws {
        let directory = try TemporaryDirectory()
        let sources = try TemporaryDirectory()
        let first = patternBytes(300_001, seed: 1)
        let second = patternBytes(4096 * 70 + 3, seed: 2)
        let parameters = Uploads(
            files: [
                CoreAPI.Attachment(fileURL: try sources.file("one.bin", first)),
                CoreAPI.Attachment(data: second, filename: "two.bin"),
            ],
            after: "z"
        )
        let encoder = MultipartFormDataEncoder(
            streamingThreshold: 0,
            temporaryDirectory: directory.url,
            chunkSize: 4096
        )
        let encoded = try encoder.encodeRequest(parameters, in: try request(.post))
        defer { encoded.discardTemporaryFile() }
        let bodyFile = try #require(encoded.body.file)
        let expected = multipartBody(
            try boundary(of: encoded),
            [
                .file("files", filename: "one.bin", type: "application/octet-stream", first),
                .file("files", filename: "two.bin", type: "application/octet-stream", second),
                .text("after", "z"),
            ]
        )
        #expect(try Data(contentsOf: bodyFile.url) == expected)
        #expect(bodyFile.length == Int64(expected.count))
        #expect(encoded.headers["Content-Length"] == String(expected.count))
    }

    @Test func aCollisionWhileStreamingStartsTheFileAgain() throws {
        let directory = try TemporaryDirectory()
        let sources = try TemporaryDirectory()
        let shortBoundary = "CoreAPI-short"
        var bytes = patternBytes(300_000, seed: 3)
        let delimiter = Data("--\(collidingBoundary)".utf8)
        bytes.replaceSubrange(290_000..<(290_000 + delimiter.count), with: delimiter)
        let file = try sources.file("big.bin", bytes)
        let boundaries = BoundarySequence([collidingBoundary, collidingBoundary, shortBoundary])
        let encoder = encoder(boundaries: boundaries, streamingThreshold: 0, temporaryDirectory: directory.url)
        let encoded = try encoder.encodeRequest(
            Upload(title: "t", file: CoreAPI.Attachment(fileURL: file), note: "n"),
            in: try request(.post)
        )
        defer { encoded.discardTemporaryFile() }
        let bodyFile = try #require(encoded.body.file)
        #expect(try boundary(of: encoded) == shortBoundary)
        let expected = multipartBody(
            shortBoundary,
            [
                .text("title", "t"), .file("file", filename: "big.bin", type: "application/octet-stream", bytes),
                .text("note", "n"),
            ]
        )
        #expect(try Data(contentsOf: bodyFile.url) == expected)
        #expect(bodyFile.length == Int64(expected.count))
        #expect(encoded.headers["Content-Length"] == String(expected.count))
        #expect(try directory.contents() == [bodyFile.url.lastPathComponent])
    }

    @Test func smallBodiesStayInMemory() throws {
        let directory = try TemporaryDirectory()
        let encoder = MultipartFormDataEncoder(temporaryDirectory: directory.url)
        let encoded = try encoder.encodeRequest(
            Upload(title: "t", file: pngAttachment, note: "n"),
            in: try request(.post)
        )
        #expect(encoded.body.file == nil)
        let expected = multipartBody(
            try boundary(of: encoded),
            [
                .text("title", "t"), .file("file", filename: "x.png", type: "image/png", Data("png".utf8)),
                .text("note", "n"),
            ]
        )
        #expect(encoded.body.data == expected)
        #expect(try directory.contents().isEmpty)
    }

    @Test func theThresholdIsTheLargestBodyKeptInMemory() throws {
        let directory = try TemporaryDirectory()
        let parts: [ExpectedPart] = [.text("k", "v")]
        let length = Int64(multipartBody(cleanBoundary, parts).count)
        let atThreshold = try encoder(
            boundaries: BoundarySequence([cleanBoundary]),
            streamingThreshold: length,
            temporaryDirectory: directory.url
        ).encodeRequest(["k": "v"], in: try request(.post))
        #expect(atThreshold.body.file == nil)
        #expect(atThreshold.body.data == multipartBody(cleanBoundary, parts))

        let aboveThreshold = try encoder(
            boundaries: BoundarySequence([cleanBoundary]),
            streamingThreshold: length - 1,
            temporaryDirectory: directory.url
        ).encodeRequest(["k": "v"], in: try request(.post))
        defer { aboveThreshold.discardTemporaryFile() }
        let bodyFile = try #require(aboveThreshold.body.file)
        #expect(bodyFile.length == length)
        #expect(try Data(contentsOf: bodyFile.url) == multipartBody(cleanBoundary, parts))
    }

    @Test func aFailedEncodingLeavesNoFileBehind() throws {
        let directory = try TemporaryDirectory()
        let streaming = MultipartFormDataEncoder(streamingThreshold: 0, temporaryDirectory: directory.url)
        let missing = directory.url.appendingPathComponent("missing.png")
        let unreadable = #expect(throws: ApiError.self) {
            try streaming.encodeRequest(
                Upload(title: "t", file: CoreAPI.Attachment(fileURL: missing), note: "n"),
                in: try request(.post)
            )
        }
        #expect(Self.unreadablePath(unreadable) == missing.path)
        #expect(try directory.contents().isEmpty)

        let getRequest = #expect(throws: ApiError.self) {
            try streaming.encodeRequest(["k": "v"], in: try request(.get))
        }
        #expect(Self.encodingReason(getRequest) != nil)
        #expect(try directory.contents().isEmpty)

        let colliding = encoder(
            boundaries: BoundarySequence([collidingBoundary]),
            streamingThreshold: 0,
            temporaryDirectory: directory.url
        )
        let collision = #expect(throws: ApiError.self) {
            try colliding.encodeRequest(["v": "--\(collidingBoundary)"], in: try request(.post))
        }
        #expect(Self.encodingReason(collision) != nil)
        #expect(try directory.contents().isEmpty)
    }

    @Test func discardingKeepsAFileThatIsNotTemporary() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("body.bin", Data("body".utf8))
        var encoded = try request(.post)
        encoded.body = .file(ApiRequest.File(url: file, length: 4, isTemporary: false))
        encoded.discardTemporaryFile()
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test func staticMultipartHasDefaultStrategies() throws {
        let encoder: MultipartFormDataEncoder = .multipart
        #expect(encoder.format.arrayEncoding == .repeatedKey)
        #expect(encoder.format.boolEncoding == .literal)
        #expect(encoder.streamingThreshold == 10 * 1024 * 1024)
        #expect(encoder.chunkSize == 1024 * 1024)
        let body = try #require(try encoder.body(for: When(at: fixedDate)))
        #expect(body.data == multipartBody(body.boundary, [.text("at", "2023-11-14T22:13:20Z")]))
    }
}
