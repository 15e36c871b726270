public import Foundation

/// The one error type of CoreAPI, with stable categories on every platform.
///
/// - ``invalidRequest(_:)``: the request could not be built; nothing was sent.
/// - ``transport(_:)``: the exchange failed below HTTP (connect, DNS, TLS, connection lost).
/// - ``timeout``: no progress within the request's timeout.
/// - ``cancelled``: the request was cancelled (task cancellation, a handle, or ``ApiSession/cancelAllRequests()``).
/// - ``unauthorized(_:)``: the server answered `401 Unauthorized`.
/// - ``unacceptableStatus(_:)``: another status the method does not accept.
/// - ``unacceptableContentType(_:)``: the body's media type is not one the `Response` accepts.
/// - ``mapping(_:)``: the response arrived but could not be turned into the method's `Response`.
/// - ``redirect(_:)``: a redirect was refused by the session's ``SessionPolicy``.
/// - ``responseTooLarge(limit:)``: the response body exceeded the size limit.
/// - ``unknown(_:)``: an error CoreAPI does not know, kept as it was thrown.
/// - ``streamBufferFull(limit:)``: the reader of a stream fell further behind than its buffer holds.
///
/// A transport failure and an unknown error keep the error they came from (``underlyingError``), a
/// mapping failure its parser's error; equality ignores them.
///
/// Descriptions never contain the values of secret headers (see ``Headers/secretNames``) or bodies, nor
/// the text of an underlying error, which may quote a URL with its query.
public enum ApiError: Error, Sendable, Equatable {
    /// The request could not be built; nothing was sent.
    case invalidRequest(InvalidRequestReason)
    /// The exchange failed below HTTP.
    case transport(TransportFailure)
    /// The request made no progress within its timeout.
    case timeout
    /// The request was cancelled.
    case cancelled
    /// The server answered `401 Unauthorized` (including a `WWW-Authenticate` challenge).
    case unauthorized(StatusFailure)
    /// The server answered with a status code the method does not accept.
    case unacceptableStatus(StatusFailure)
    /// The body's media type is not one the method's `Response` accepts (see
    /// ``ApiResponse/acceptableContentTypes``).
    case unacceptableContentType(ContentTypeFailure)
    /// The response could not be mapped to the method's `Response`.
    case mapping(MappingFailure)
    /// A redirect was refused: too many hops, a scheme other than `http`/`https`, or a downgrade from
    /// `https` to `http`.
    case redirect(RedirectFailure)
    /// The response body was larger than `limit` bytes (after content decoding), or its
    /// `Content-Length` said it would be; the transfer was stopped.
    case responseTooLarge(limit: Int64)
    /// An error CoreAPI does not know, such as one a ``Transport`` of your own or a stub handler threw:
    /// not a transport failure, since nothing says the network failed.
    case unknown(UnknownFailure)
    /// More than `limit` bytes of a streamed body waited for a reader that takes them slower than they
    /// arrive, on a transport that cannot pause the transfer (URLSession on Linux); the transfer was
    /// stopped after the pieces already buffered, which the reader gets first. See
    /// ``ApiSession/stream(_:limits:bufferLimit:)``.
    case streamBufferFull(limit: Int)

    /// Why a redirect was refused.
    public struct RedirectFailure: Sendable, Equatable {
        /// What was wrong with the redirect.
        public enum Reason: Sendable, Equatable {
            /// More hops than the policy allows.
            case tooManyRedirects(limit: Int)
            /// The target's scheme is not `http` or `https` (or the `Location` is not a URL).
            case unsupportedScheme(String)
            /// The redirect goes from `https` to `http`.
            case insecureDowngrade
        }

        /// What was wrong.
        public var reason: Reason
        /// The status code of the redirect response.
        public var statusCode: Int
        /// The target without query, fragment or credentials, when it was a URL.
        public var target: URL?

        /// Creates a redirect failure.
        public init(reason: Reason, statusCode: Int, target: URL? = nil) {
            self.reason = reason
            self.statusCode = statusCode
            self.target = target.map(StatusFailure.withoutQuery)
        }
    }

    /// Why a request could not be built.
    public enum InvalidRequestReason: Sendable, Equatable {
        /// The ``HostProvider`` knows no host for this key.
        case unknownHostKey(String)
        /// An ``EnvironmentsHostProvider`` has no environment of this name.
        case unknownEnvironment(String)
        /// The URL could not be built; the text says why.
        case invalidURL(String)
        /// A header name is not a token, or its value contains CR, LF, NUL or another control character.
        case invalidHeader(name: String)
        /// The method token is not a valid RFC 9110 token.
        case invalidMethod(String)
        /// The parameters could not be encoded; the text says why.
        case encoding(String)
        /// A file to upload (an ``Attachment``) does not exist, is not a regular file or cannot be read.
        case unreadableFile(path: String)
        /// A download's destination exists and the download may not replace it
        /// (``DownloadedFile/Options/overwrite``).
        case destinationExists(path: String)
        /// A download's file cannot be created or written.
        case unwritableFile(path: String)
        /// The session was invalidated with ``ApiSession/invalidate()``; it sends nothing more.
        case sessionInvalidated
        /// A stored property of the method supplies one of ``ApiMethod``'s requirements (`path`,
        /// `hostProviderKey`) and would also be sent as a parameter with the same value: mark it
        /// ``Excluded``, or make the requirement a computed property. An API parameter that really has
        /// that name is sent when it differs from the requirement's value (a computed `path` and a
        /// property encoded under the key `path`).
        case requirementSentAsParameter(property: String)
        /// The method computes a property under the name of a setting that a method does not have
        /// (`timeout`, `deadline`, `acceptableStatusCodes`, `statusErrors`, `middlewares`, `cachePolicy`,
        /// `isLoggingEnabled`, `method`), or declares `headers` of a type other than ``Headers``: no call
        /// reads it, so the call fails rather than ignore it. `write` is the declaration to write instead;
        /// a method's settings are its ``ApiMethod/options``.
        case unusedSetting(property: String, write: String)
        /// A streamed body (``ApiRequest/Stream``) produced more or fewer bytes than its declared
        /// length; `produced` counts the bytes up to the chunk that went past the length, or all of them.
        case bodyLengthMismatch(declared: Int64, produced: Int64)
        /// The sequence of a streamed body (``ApiRequest/Stream``) threw; the failure keeps its error.
        case bodyStreamFailed(UnknownFailure)
    }

    /// An error CoreAPI does not know.
    public struct UnknownFailure: Sendable, Equatable {
        /// The error, as it was thrown.
        public var cause: any Error
        /// The error's type, with its module (`MyModule.StoreError`), and for an `NSError` its domain
        /// and code: what the description shows of it.
        public var typeName: String

        /// Keeps `cause`.
        public init(_ cause: any Error) {
            self.cause = cause
            if Swift.type(of: cause) is NSError.Type {
                let error = cause as NSError
                self.typeName = "NSError(domain: \(error.domain), code: \(error.code))"
            } else {
                self.typeName = String(reflecting: Swift.type(of: cause))
            }
        }

        /// Unknown failures are equal when their types match; causes are not compared.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.typeName == rhs.typeName
        }
    }

    /// A response whose status code was not accepted.
    public struct StatusFailure: Sendable, Equatable {
        /// The largest number of body bytes kept.
        public static let maximumBodySize = 64 * 1024

        /// The HTTP status code.
        public var statusCode: Int
        /// The response header fields.
        public var headers: Headers
        /// The response body, at most ``maximumBodySize`` bytes.
        public var body: Data
        /// The URL of the response, without its query.
        public var url: URL?
        /// The message configured for this status, by the method's ``CallOptions/statusMessages`` or the
        /// session's ``ApiSession/defaults``; `nil` when neither names the status.
        public var message: String?
        /// The service's own error for this status, when the method or its family read one from the body
        /// (``CallOptions/statusErrors``, ``ApiMethod/statusError(for:)`` or a family's
        /// ``ApiResponse/process(response:data:error:)``) but the status is `401`, which is always
        /// ``ApiError/unauthorized(_:)``; `nil` otherwise. Two failures compare equal when their other
        /// fields do and both or neither have one.
        public var serviceError: (any Error)?

        /// Creates a status failure; `body` is capped at ``maximumBodySize`` bytes.
        public init(
            statusCode: Int,
            headers: Headers = Headers(),
            body: Data = Data(),
            url: URL? = nil,
            message: String? = nil
        ) {
            self.statusCode = statusCode
            self.headers = headers
            self.body = body.count > Self.maximumBodySize ? Data(body.prefix(Self.maximumBodySize)) : body
            self.url = url.map(Self.withoutQuery)
            self.message = message
        }

        /// The status, with its name.
        public var status: HTTPStatus { HTTPStatus(statusCode) }

        /// Whether the two failures have the same fields; a ``serviceError`` counts only by its presence.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.statusCode == rhs.statusCode && lhs.headers == rhs.headers && lhs.body == rhs.body
                && lhs.url == rhs.url && lhs.message == rhs.message
                && (lhs.serviceError == nil) == (rhs.serviceError == nil)
        }

        /// `url` without its query, fragment and credentials, which may carry secrets.
        static func withoutQuery(_ url: URL) -> URL {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
            components.query = nil
            components.fragment = nil
            components.user = nil
            components.password = nil
            return components.url ?? url
        }
    }

    /// A response whose body has a media type the expected type does not accept.
    public struct ContentTypeFailure: Sendable, Equatable {
        /// The response's `Content-Type`, or `nil` when it had none.
        public var contentType: String?
        /// The media types the response type accepts.
        public var acceptable: [String]
        /// The HTTP status code.
        public var statusCode: Int
        /// The response body, at most ``StatusFailure/maximumBodySize`` bytes.
        public var body: Data

        /// Creates a content-type failure; `body` is capped at ``StatusFailure/maximumBodySize`` bytes.
        public init(contentType: String?, acceptable: [String], statusCode: Int, body: Data = Data()) {
            self.contentType = contentType
            self.acceptable = acceptable
            self.statusCode = statusCode
            let limit = StatusFailure.maximumBodySize
            self.body = body.count > limit ? Data(body.prefix(limit)) : body
        }
    }

    /// A response that could not be mapped to the expected type.
    public struct MappingFailure: Sendable, Equatable {
        /// The type that was expected.
        public var typeName: String
        /// The HTTP status code of the response, when there was one.
        public var statusCode: Int?
        /// Why mapping failed, for example the `DecodingError` with its coding path; `nil` when the
        /// parser gave no reason.
        public var cause: (any Error)?

        /// Creates a mapping failure.
        public init(typeName: String, statusCode: Int? = nil, cause: (any Error)? = nil) {
            self.typeName = typeName
            self.statusCode = statusCode
            self.cause = cause
        }

        /// Mapping failures are equal when type and status match; causes are not compared.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.typeName == rhs.typeName && lhs.statusCode == rhs.statusCode
        }
    }
}

extension ApiError {
    /// The error this one was made from: a transport failure's ``TransportFailure/cause``, an unknown
    /// error's ``UnknownFailure/cause``, or the parser's error of a mapping failure; `nil` for the others.
    public var underlyingError: (any Error)? {
        switch self {
        case .transport(let failure): failure.cause
        case .unknown(let failure): failure.cause
        case .mapping(let failure): failure.cause
        default: nil
        }
    }

    /// The HTTP status code when the error came with a response.
    public var statusCode: Int? {
        switch self {
        case .unauthorized(let failure), .unacceptableStatus(let failure): failure.statusCode
        case .unacceptableContentType(let failure): failure.statusCode
        case .mapping(let failure): failure.statusCode
        default: nil
        }
    }

    /// Maps an error of the network layer to an ``ApiError``: an ``ApiError`` stays as it is, a
    /// cancellation is ``cancelled``, a `URLError` gets its kind (and is kept as the failure's
    /// ``TransportFailure/cause``), and anything else is ``unknown(_:)``, never a transport failure.
    ///
    /// CoreAPI uses it once, where a ``Transport``'s error arises; an error a middleware throws itself
    /// reaches the caller unchanged, so do not use this to classify errors in general. `URLError` codes
    /// differ between platforms (Linux reports several faults as `-1`), so the mapping is conservative:
    /// only codes with one meaning everywhere get a specific category.
    public init(_ error: any Error) {
        switch error {
        case let error as ApiError:
            self = error
        case is CancellationError:
            self = .cancelled
        case let urlError as URLError:
            self = ApiError(urlErrorCode: urlError.code, description: urlError.localizedDescription, cause: error)
        default:
            let nsError = error as NSError
            let code: URLError.Code? = URLError.Code(rawValue: nsError.code)
            if nsError.domain == NSURLErrorDomain, let code {
                self = ApiError(urlErrorCode: code, description: nsError.localizedDescription, cause: error)
            } else {
                self = .unknown(UnknownFailure(error))
            }
        }
    }

    /// `description` tells TLS failures apart on Linux, which reports them (an untrusted certificate,
    /// a failed handshake) as the unknown code `-1` with libcurl's message, such as "SSL certificate
    /// problem: self-signed certificate". `cause` is kept in the transport failure.
    init(urlErrorCode code: URLError.Code, description: String = "", cause: (any Error)? = nil) {
        let kind: TransportFailure.Kind
        switch code {
        case .unknown where description.contains("SSL") || description.contains("certificate"):
            kind = .tls
        case .cancelled, .userCancelledAuthentication:
            self = .cancelled
            return
        case .timedOut:
            self = .timeout
            return
        case .cannotConnectToHost:
            kind = .cannotConnect
        case .cannotFindHost, .dnsLookupFailed:
            kind = .dns
        case .networkConnectionLost:
            kind = .connectionLost
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            kind = .offline
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            kind = .tls
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            kind = .badResponse
        default:
            kind = .other
        }
        self = .transport(TransportFailure(kind: kind, code: code.rawValue, cause: cause))
    }
}

extension ApiError {
    /// This error, with the host and port of `url` in a transport failure about reaching the server that
    /// names none yet; any other error as it is. Only the host and port are taken: never the user
    /// information, path or query, which may carry secrets.
    func namingEndpoint(of url: URL) -> ApiError {
        guard case .transport(var failure) = self, failure.isAboutReachingTheServer, failure.host == nil,
            let host = url.host, !host.isEmpty
        else { return self }
        failure.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let scheme = url.scheme?.lowercased()
        failure.port = url.port ?? (scheme == "https" || scheme == "wss" ? 443 : scheme == nil ? nil : 80)
        return .transport(failure)
    }
}
