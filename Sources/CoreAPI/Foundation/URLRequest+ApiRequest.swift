#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The bridge between CoreAPI's request and Foundation's: for code that hands a request to a Foundation
/// API, and for tests written against `URLRequest`. CoreAPI itself converts only inside
/// ``URLSessionTransport``.
extension URLRequest {
    /// The Foundation request for `request`: its method, URL, header fields (repeated names added as
    /// separate values, which Foundation joins with `","`) and a body held in memory. A body in a file or a stream
    /// is left out — upload a file with `URLSession.uploadTask(with:fromFile:)`, or send either through
    /// ``URLSessionTransport``: on Linux an `httpBodyStream` is sent whole only by a task whose delegate
    /// hands FoundationNetworking a new stream on each rewind, as that transport's does (see
    /// `Docs/PlatformBehaviour.md`).
    /// - Parameter request: The request to convert.
    public init(_ request: ApiRequest) {
        self.init(url: request.url)
        if request.method != .get {
            httpMethod = request.method.rawValue
        }
        for field in request.headers {
            addValue(field.value, forHTTPHeaderField: field.name)
        }
        if case .data(let data) = request.body {
            httpBody = data
        }
    }
}

extension ApiRequest {
    /// CoreAPI's request for a Foundation one: its method (`GET` when unset), URL, header fields ordered
    /// by name, and body.
    /// - Parameter request: The request to convert.
    /// - Throws: ``ApiError/invalidRequest(_:)`` when it has no URL, or its body is a stream, which
    ///   CoreAPI cannot read without consuming it.
    public init(_ request: URLRequest) throws(ApiError) {
        guard let url = request.url else {
            throw ApiError.invalidRequest(.encoding("the request has no URL"))
        }
        guard request.httpBodyStream == nil else {
            throw ApiError.invalidRequest(.encoding("a request body stream cannot be converted; use data or a file"))
        }
        self.init(
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            url: url,
            headers: Headers(request.allHTTPHeaderFields ?? [:]),
            body: request.httpBody.map { .data($0) } ?? .none
        )
    }
}
