public import Foundation

/// A response as a ``ResponseStore`` keeps it: status, header fields without secrets, body, and the
/// times the HTTP cache computes its age from.
public struct StoredResponse: Sendable, Hashable, Codable {
    /// The URL it answered, without secret query parameters.
    public var url: URL
    /// The status code.
    public var statusCode: Int
    /// The header fields as name and value pairs, in order, with secret ones (`Set-Cookie`, configured
    /// secret names) left out.
    public var headerFields: [[String]]
    /// The body, decoded from any content coding.
    public var body: Data
    /// When the request that brought it was sent (RFC 9111's `request_time`).
    public var requestTime: Date
    /// When it arrived (RFC 9111's `response_time`), which is also when it was stored or last refreshed.
    public var responseTime: Date
    /// The class the entry belongs to, such as the user it was fetched for; ``ResponseStore``'s
    /// `removeResponses(classifiedAs:)` drops a class at once.
    public var classification: String?
    /// The values the request had for the fields the response's `Vary` names, by lower-cased name
    /// (`""` for a field the request did not have).
    public var varyValues: [String: String]

    /// Creates a stored response.
    public init(
        url: URL,
        statusCode: Int,
        headers: Headers,
        body: Data,
        requestTime: Date,
        responseTime: Date,
        classification: String? = nil,
        varyValues: [String: String] = [:]
    ) {
        self.url = url
        self.statusCode = statusCode
        self.headerFields = headers.map { [$0.name, $0.value] }
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.classification = classification
        self.varyValues = varyValues
    }

    /// The header fields.
    public var headers: Headers {
        Headers(headerFields.compactMap { $0.count == 2 ? Headers.Field(name: $0[0], value: $0[1]) : nil })
    }

    /// The bytes the entry takes, roughly: its body and header fields.
    public var size: Int {
        body.count + headerFields.reduce(0) { $0 + $1.reduce(0) { $0 + $1.utf8.count } } + url.absoluteString.utf8.count
    }
}
