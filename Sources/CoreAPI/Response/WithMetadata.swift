public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response value together with the HTTP response it came from: status, header fields, URL and, for
/// a call made through a session, how long it took.
///
/// Wrap any ``ApiResponse`` to read what the body does not say — `ETag`, `Link`, rate-limit fields:
///
/// ```swift
/// struct ListItems: ApiMethod {
///     typealias Response = WithMetadata<Data>
///     var hostProviderKey: String { "api" }
///     var path: String { "/items" }
/// }
///
/// let page = try await session.perform(ListItems())
/// let next = page.headers["Link"]
/// let bytes = page.value
/// ```
///
/// The wrapped type decides the outcome with its own ``ApiResponse/process(response:data:error:)`` —
/// a module's error body and acceptable status codes apply unchanged — and the metadata is added to the
/// value it returns. The value's members are also reachable directly (`page.count` for `page.value.count`).
@dynamicMemberLookup
public struct WithMetadata<Value: ApiResponse>: ApiResponse {
    /// The decoded value.
    public var value: Value
    /// The status of the response.
    public var status: HTTPStatus
    /// The header fields of the response.
    public var headers: Headers
    /// The URL of the response: the last one when redirects were followed.
    public var url: URL?
    /// How long the call took; `nil` for a value not made by ``ApiSession/perform(_:options:progress:)`` (for
    /// instance one decoded directly with ``decodeResponse(response:data:)``). Not part of equality.
    public var timing: ResponseTiming?

    /// Wraps `value` with the metadata of a response.
    public init(value: Value, status: HTTPStatus, headers: Headers, url: URL?, timing: ResponseTiming? = nil) {
        self.value = value
        self.status = status
        self.headers = headers
        self.url = url
        self.timing = timing
    }

    /// Wraps `value` with the status, header fields and URL of `response`.
    public init(value: Value, response: ResponseHead) {
        self.init(
            value: value,
            status: HTTPStatus(response.statusCode),
            headers: response.headers,
            url: response.url
        )
    }

    /// A member of ``value``.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> Member {
        value[keyPath: keyPath]
    }

    /// `Value`'s own policy, with the metadata added to its value.
    public static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        Value.process(response: response, data: data, error: error).flatMap { value in
            guard let response else {
                return .failure(ApiError.transport(.init(kind: .badResponse)))
            }
            return .success(WithMetadata(value: value, response: response))
        }
    }

    /// `Value`'s parse, with the metadata added.
    public static func makeResponse(response: ResponseHead, data: Data) -> Self? {
        Value.makeResponse(response: response, data: data).map { WithMetadata(value: $0, response: response) }
    }

    /// `Value`'s throwing parse, with the metadata added.
    public static func decodeResponse(response: ResponseHead, data: Data) throws -> Self {
        WithMetadata(value: try Value.decodeResponse(response: response, data: data), response: response)
    }
}

extension WithMetadata: ResponseTimingCarrier {
    func adding(_ timing: ResponseTiming) -> WithMetadata {
        var copy = self
        copy.timing = timing
        return copy
    }
}

extension WithMetadata: Equatable where Value: Equatable {
    /// Equal when the values and the status, header fields and URL are: two fetches of the same
    /// resource are equal however long each took.
    public static func == (lhs: WithMetadata, rhs: WithMetadata) -> Bool {
        lhs.value == rhs.value && lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.url == rhs.url
    }
}

extension WithMetadata: Hashable where Value: Hashable {
    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(status)
        hasher.combine(headers)
        hasher.combine(url)
    }
}
