#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The bridge between CoreAPI's response head and Foundation's `HTTPURLResponse`.
extension ResponseHead {
    /// The head of a Foundation response: its status code, header fields ordered by name (Foundation
    /// has already joined repeated ones with `", "`; they are copied when first read) and URL;
    /// ``httpURLResponse`` then returns `response` itself.
    /// - Parameter response: The Foundation response.
    public init(_ response: HTTPURLResponse) {
        self.init(
            status: HTTPStatus(response.statusCode),
            url: response.url ?? URL(fileURLWithPath: "/"),
            foundation: response
        )
    }

    /// The head as Foundation's `HTTPURLResponse`, for code that needs one.
    ///
    /// A head that came from URLSession returns the engine's own object. Any other is converted each
    /// time this is read — repeated fields joined with `", "`, as Foundation keeps them — so read it once
    /// and keep it; on Linux FoundationNetworking capitalises every field name through `NSString`. A
    /// status code `HTTPURLResponse` refuses gives `500`'s object with the same fields.
    public var httpURLResponse: HTTPURLResponse {
        if let original {
            return original
        }
        var fields: [String: String] = [:]
        for field in headers {
            fields[field.name] = fields[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        return HTTPURLResponse(url: url, statusCode: status.code, httpVersion: "HTTP/1.1", headerFields: fields)
            ?? HTTPURLResponse(url: url, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: fields)!
    }
}
