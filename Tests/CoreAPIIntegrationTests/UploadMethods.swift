import CoreAPI
import CoreAPIJSON
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the fixture's `/multipart` route parsed, with Python's `email` package.
struct ParsedMultipart: JsonApiResponse, FixtureResponse {
    struct Part: Decodable, Equatable {
        let name: String?
        let filename: String?
        let contentType: String?
        let size: Int
        let sha256: String
        let text: String?
    }
    let contentType: String
    let contentLength: String?
    let transferEncoding: String?
    let bodySize: Int
    let parts: [Part]

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}

/// What the fixture's `/upload` route counted while streaming the body.
struct UploadReceipt: JsonApiResponse, FixtureResponse {
    let bodySize: Int
    let sha256: String
    let contentType: String?
    let contentLength: String?
    let transferEncoding: String?

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}

/// A multipart upload whose fields are the `fields` value; the encoder settings are not sent.
struct MultipartUpload<Fields: Encodable & Sendable, Response: FixtureResponse>: FixtureMethod {
    var path: String
    var fields: Fields
    var encoder: MultipartFormDataEncoder
    var httpMethod: HTTPMethod = .post
    var tag = ""

    var parametersEncoding: any ParametersEncoding { encoder }

    func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }
}

/// A form body, echoed back.
struct FormPost: FixtureMethod {
    typealias Response = Echo
    var path: String { "/echo/form" }
    var httpMethod: HTTPMethod { .post }
    var parametersEncoding: any ParametersEncoding { FormParametersEncoder() }
    let title: String
    let tags: [String]
    let starred: Bool
}

/// A directory of its own under the temporary directory, for body files.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("coreapi-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The names of the files in the directory.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// The names of the files in the directory once it has settled: a call ends before the engine is
    /// done with a cancelled upload, and its temporary body file is removed when the engine is (within
    /// 50 ms here, 10 s at the most); waits up to 5 s for the directory to hold no more than `count`.
    func contents(settlingTo count: Int) async throws -> [String] {
        let start = ContinuousClock.now
        while try contents().count > count, ContinuousClock.now - start < .seconds(5) {
            try await Task.sleep(for: .milliseconds(10))
        }
        return try contents()
    }

    /// A file of `size` bytes of a repeating, non-trivial pattern, written in 1 MiB chunks.
    func makeFile(named name: String, size: Int) throws -> URL {
        let file = url.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        var remaining = size
        while remaining > 0 {
            let count = min(remaining, chunk.count)
            try handle.write(contentsOf: chunk.prefix(count))
            remaining -= count
        }
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
