public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The head of an HTTP response: its status, header fields and URL.
///
/// Every transport returns one, middlewares see it in ``RawResponse``, and a response type's
/// ``ApiResponse/process(response:data:error:)`` and ``ApiResponse/makeResponse(response:data:)`` receive
/// it with the body. Repeated header fields stay separate fields, in the order they came, where the
/// engine keeps them apart (the AsyncHTTPClient transport does; FoundationNetworking and URLSession
/// join them with `", "` before CoreAPI sees them).
///
/// Code that needs Foundation's `HTTPURLResponse` asks for ``httpURLResponse``: it is built only then,
/// except over ``URLSessionTransport``, which passes its own through.
public struct ResponseHead: Sendable {
    /// The status.
    public var status: HTTPStatus {
        didSet { original = nil }
    }
    /// The header fields, in the order they came.
    public var headers: Headers {
        didSet { original = nil }
    }
    /// The URL the response is for: after redirects, the last one.
    public var url: URL {
        didSet { original = nil }
    }
    /// The engine's own `HTTPURLResponse`, when the head was made from one and is unchanged since.
    private(set) var original: HTTPURLResponse?

    /// Creates a response head.
    /// - Parameters:
    ///   - status: The status.
    ///   - headers: The header fields.
    ///   - url: The URL the response is for.
    public init(status: HTTPStatus, headers: Headers = Headers(), url: URL) {
        self.status = status
        self.headers = headers
        self.url = url
        original = nil
    }

    /// A head made from an engine's `HTTPURLResponse`, which ``httpURLResponse`` then returns as it is.
    init(status: HTTPStatus, headers: Headers, url: URL, original: HTTPURLResponse) {
        self.status = status
        self.headers = headers
        self.url = url
        self.original = original
    }

    /// The status code, such as `200`.
    public var statusCode: Int { status.code }
}

extension ResponseHead: Equatable {
    /// Whether two heads have the same status code, header fields and URL.
    public static func == (lhs: ResponseHead, rhs: ResponseHead) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.url == rhs.url
    }
}

extension ResponseHead: CustomStringConvertible {
    /// The status and URL, such as `200 OK https://api.example.com/items`; no header field, so no
    /// secret.
    public var description: String { "\(status) \(url.absoluteString)" }
}
