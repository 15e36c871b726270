/// An HTTP request method such as `GET` or `POST`.
///
/// The type is an extensible struct rather than a closed enum: any method token can be expressed,
/// and the common ones are static members. A token that is not a valid RFC 9110 `token` is rejected
/// with ``ApiError/InvalidRequestReason/invalidMethod(_:)`` before anything is sent.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as it is sent on the request line.
    public let rawValue: String

    /// Creates a method from its token. The token is validated when a request is built.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from its token, validating it at once.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/invalidMethod(_:)``
    ///   when `token` is empty or contains a character outside the RFC 9110 `tchar` set.
    public init(validating token: String) throws {
        self.init(rawValue: token)
        try validate()
    }

    /// Checks that the token is a valid RFC 9110 `token`.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/invalidMethod(_:)``.
    public func validate() throws {
        // Over contiguous bytes: walking a short string's `utf8` view is much slower.
        var token = rawValue
        guard token.withUTF8({ !$0.isEmpty && $0.allSatisfy(Self.isTokenCharacter) }) else {
            throw ApiError.invalidRequest(.invalidMethod(rawValue))
        }
    }

    /// Whether a request with this method carries its parameters in the URL query by default.
    ///
    /// True for `GET`, `HEAD` and `DELETE`, the methods whose bodies have no defined meaning.
    public var prefersQueryParameters: Bool {
        self == .get || self == .head || self == .delete
    }

    /// Whether RFC 9110 §9.2.2 defines the method as idempotent — `GET`, `HEAD`, `OPTIONS`, `PUT`,
    /// `DELETE` and `TRACE` — so that a request with it may be sent again whole after a failure, as
    /// ``RetryPolicy`` does by default and an engine may before any response.
    public var isIdempotent: Bool {
        RetryPolicy.idempotentMethods.contains(self)
    }

    /// The method token.
    public var description: String { rawValue }

    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension HTTPMethod {
    /// `GET`: transfer a representation of the target resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`: process the enclosed representation.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace the target resource with the enclosed representation.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: apply partial modifications to the target resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove the target resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`: like `GET`, but without a response body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`: describe the communication options for the target resource.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `TRACE`: perform a message loop-back test.
    public static let trace = HTTPMethod(rawValue: "TRACE")
    /// `CONNECT`: establish a tunnel to the server.
    public static let connect = HTTPMethod(rawValue: "CONNECT")
}
