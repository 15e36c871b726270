public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request body sent as it is — bytes or a file — with its content type: an upload that is not a form.
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
/// A file is streamed by the transport, never read into memory, and is left in place. A method's own
/// `Content-Type` header wins over ``contentType``.
public struct RequestBody: Sendable, Hashable {
    /// Where the bytes are.
    enum Source: Sendable, Hashable {
        case data(Data)
        case file(URL)
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
        }
        return request
    }

    /// The size of the regular, readable file at `url`.
    private static func readableLength(of url: URL) throws -> Int64 {
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
