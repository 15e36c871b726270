/// An HTTP status code with a name and a reason phrase.
///
/// The codes of RFC 9110 and a few registered beside it are static members; a module adds its own the
/// same way:
///
/// ```swift
/// extension HTTPStatus {
///     static let sessionExpired = HTTPStatus(440, reasonPhrase: "Session Expired")
/// }
/// ```
///
/// Two statuses are equal when their codes are, whatever their phrases. A status matches an `Int` code
/// in a `switch`, and its ``kind`` says its class:
///
/// ```swift
/// switch response.statusCode {
/// case HTTPStatus.notFound: showEmptyState()
/// case HTTPStatus.Kind.serverError: scheduleRetry()
/// default: break
/// }
/// ```
public struct HTTPStatus: Sendable, Hashable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The numeric code.
    public let code: Int
    /// The reason phrase: the registered one, the one given to ``init(_:reasonPhrase:)``, or empty for
    /// a code nobody named.
    public let reasonPhrase: String

    /// The status for `code`, with its registered reason phrase when it has one.
    public init(_ code: Int) {
        self.code = code
        self.reasonPhrase = Self.registeredPhrases[code] ?? ""
    }

    /// A status with a phrase of its own, for codes a service defines.
    public init(_ code: Int, reasonPhrase: String) {
        self.code = code
        self.reasonPhrase = reasonPhrase
    }

    /// The status for an integer literal.
    public init(integerLiteral code: Int) {
        self.init(code)
    }

    /// The class of a status, from its first digit.
    ///
    /// A value rather than an enumeration, so that it also matches an `Int` code or an ``HTTPStatus`` in a
    /// `case` (`case HTTPStatus.Kind.serverError:`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The first digit of the codes in this class; 0 for ``other``.
        private let digit: Int

        private init(digit: Int) {
            self.digit = digit
        }

        /// `1xx`.
        public static let informational = Kind(digit: 1)
        /// `2xx`.
        public static let successful = Kind(digit: 2)
        /// `3xx`.
        public static let redirection = Kind(digit: 3)
        /// `4xx`.
        public static let clientError = Kind(digit: 4)
        /// `5xx`.
        public static let serverError = Kind(digit: 5)
        /// Anything outside `100...599`.
        public static let other = Kind(digit: 0)

        /// The class of `code`.
        init(code: Int) {
            digit = (100...599).contains(code) ? code / 100 : 0
        }

        /// The class as codes are written, such as `4xx`, or `other`.
        public var description: String {
            digit == 0 ? "other" : "\(digit)xx"
        }

        /// Whether `code` is in this class.
        public static func ~= (kind: Kind, code: Int) -> Bool {
            Kind(code: code) == kind
        }

        /// Whether `status` is in this class.
        public static func ~= (kind: Kind, status: HTTPStatus) -> Bool {
            status.kind == kind
        }
    }

    /// The class of this status.
    public var kind: Kind { Kind(code: code) }

    /// The code and its phrase, such as `404 Not Found`.
    public var description: String {
        reasonPhrase.isEmpty ? String(code) : "\(code) \(reasonPhrase)"
    }

    /// Whether the codes are equal.
    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// Orders by code.
    public static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool {
        lhs.code < rhs.code
    }

    /// Whether `code` is this status's code.
    public static func ~= (status: HTTPStatus, code: Int) -> Bool {
        status.code == code
    }

    /// Whether `code` is a redirect the session follows when it carries a `Location` field: 301, 302, 303,
    /// 307 or 308. A switch rather than a set: it is asked of every response, and a set hashes.
    static func isFollowedRedirect(_ code: Int) -> Bool {
        switch code {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }
}
