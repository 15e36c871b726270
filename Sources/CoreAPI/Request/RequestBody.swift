public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request body sent as it is — bytes, a file or a stream of chunks — with its content type: an upload
/// that is not a form.
///
/// A method with a ``ApiMethod/body`` sends it instead of encoding its parameters into the body; the
/// parameters go in the query:
///
/// ```swift
/// struct PutAvatar: ApiMethod {
///     typealias Response = EmptyResponse
///     @Excluded var file: URL
///     var overwrite = true
///     var hostProviderKey: String { "api" }
///     var httpMethod: HTTPMethod { .put }
///     var path: String { "/me/avatar" }
///     var body: RequestBody? { .file(file, contentType: "image/png") }
/// }
/// // PUT /me/avatar?overwrite=true, the PNG streamed from disk.
/// ```
///
/// A file is streamed by the transport, never read into memory, and is left in place. A body produced
/// while it is sent comes from ``stream(length:contentType:makeChunks:)``: a factory of async sequences
/// of chunks, called again for each send (a `307`/`308` redirect, a retry, a token refresh). A method's
/// own `Content-Type` header wins over ``contentType``.
public struct RequestBody: Sendable, Hashable {
    /// Where the bytes are.
    enum Source: Sendable, Hashable {
        case data(Data)
        case file(URL)
        case stream(ApiRequest.Stream)
    }

    let source: Source
    /// The `Content-Type` sent with the body.
    public let contentType: String

    /// The bytes `data`.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(source: .data(data), contentType: contentType)
    }

    /// The contents of the file at `url`, streamed from it.
    public static func file(_ url: URL, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(source: .file(url), contentType: contentType)
    }

    /// The chunks of the sequences `makeChunks` makes, one fresh sequence each time the request is sent.
    ///
    /// With a known `length`, the request carries it as its `Content-Length`, and a sequence that
    /// produces more or fewer bytes fails the call with ``ApiError/invalidRequest(_:)`` and
    /// ``ApiError/InvalidRequestReason/bodyLengthMismatch(declared:produced:)``. Without one, the
    /// AsyncHTTPClient transport sends the body chunked; ``URLSessionTransport`` writes every stream to a
    /// temporary file first and uploads that with its length. An error the sequence throws ends the call
    /// with ``ApiError/InvalidRequestReason/bodyStreamFailed(_:)``. See ``ApiRequest/Stream``.
    ///
    /// ```swift
    /// var body: RequestBody? {
    ///     .stream(length: 11, contentType: "text/plain") {
    ///         AsyncStream { continuation in
    ///             continuation.yield(Data("hello ".utf8))
    ///             continuation.yield(Data("world".utf8))
    ///             continuation.finish()
    ///         }
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - length: The exact number of bytes of every sequence, when it is known in advance.
    ///   - contentType: The `Content-Type` sent with the body.
    ///   - makeChunks: Makes a fresh sequence of the body's chunks, from its first byte.
    public static func stream<Chunks: AsyncSequence & Sendable>(
        length: Int64? = nil,
        contentType: String = "application/octet-stream",
        makeChunks: @escaping @Sendable () -> Chunks
    ) -> RequestBody where Chunks.Element == Data {
        RequestBody(
            source: .stream(ApiRequest.Stream(length: length, makeChunks: makeChunks)),
            contentType: contentType
        )
    }

    /// `request` with this body and its `Content-Type`.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/unreadableFile(path:)``
    ///   for a file that is missing or cannot be read, and with ``ApiError/InvalidRequestReason/encoding(_:)``
    ///   for a `GET` or `HEAD` request, which cannot carry a body.
    func encoded(in request: ApiRequest) throws -> ApiRequest {
        let method = request.method
        guard method != .get, method != .head else {
            throw ApiError.invalidRequest(.encoding("a \(method) request cannot carry a body"))
        }
        var request = request
        if !request.headers.contains("Content-Type") {
            request.headers.set(contentType, for: "Content-Type")
        }
        switch source {
        case .data(let data):
            request.body = .data(data)
        case .file(let url):
            let length = try Self.readableLength(of: url)
            request.headers.set(String(length), for: "Content-Length")
            request.body = .file(.init(url: url, length: length, isTemporary: false))
        case .stream(let stream):
            if let length = stream.length {
                request.headers.set(String(length), for: "Content-Length")
            } else {
                request.headers.remove("Content-Length")
            }
            request.body = .stream(stream)
        }
        return request
    }

    /// The size of the regular, readable file at `url`.
    /// - Throws: ``ApiError/InvalidRequestReason/unreadableFile(path:)`` when there is none.
    static func readableLength(of url: URL) throws(ApiError) -> Int64 {
        let path = url.path
        guard url.isFileURL, FileManager.default.isReadableFile(atPath: path),
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? NSNumber
        else {
            throw ApiError.invalidRequest(.unreadableFile(path: path))
        }
        return size.int64Value
    }
}
