#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    public import Foundation
#endif

/// Adds header fields to every request, read each time the request is sent — on every attempt — not
/// when the method value is built.
///
/// The fields come from fixed ``Headers``, a closure (a token store, say), the fields of an `Encodable`
/// value, or the ``basic(username:password:policy:)`` and ``bearer(_:policy:)`` helpers. By default a
/// field is set only when the request does not have it yet, so the session's `headers`, the method's own
/// ``ApiMethod/headers`` and earlier middlewares win; ``Policy/overwrite`` replaces their values instead.
/// Values are checked before anything is sent: CR, LF, NUL and other control characters fail the call
/// with ``ApiError/invalidRequest(_:)`` and ``ApiError/InvalidRequestReason/invalidHeader(name:)``.
///
/// A middleware that sends a request again (a retrier) re-reads the fields only when it comes before this
/// one in the chain.
///
/// ```swift
/// let session = ApiSession(
///     hostProvider: hosts,
///     middlewares: [
///         HeadersMiddleware.defaults,
///         HeadersMiddleware(["X-Client": "ios"]),
///         HeadersMiddleware.bearer { try await tokenStore.accessToken() },
///     ]
/// )
/// ```
public struct HeadersMiddleware: Middleware {
    /// What happens to a field the request already has.
    public enum Policy: Sendable, Hashable {
        /// The request's value stays; the middleware's is not added. The default.
        case keepExisting
        /// The middleware's values replace every value the request has for that name.
        case overwrite
    }

    /// How fields the request already has are treated.
    public let policy: Policy
    private let makeHeaders: @Sendable () async throws -> Headers

    /// Adds fixed fields.
    /// - Parameters:
    ///   - headers: The fields, in order; a repeated name adds every value.
    ///   - policy: What happens to a field the request already has.
    public init(_ headers: Headers, policy: Policy = .keepExisting) {
        self.init(policy: policy) { headers }
    }

    /// Adds fixed fields from a dictionary, in name order.
    /// - Parameters:
    ///   - headers: The fields.
    ///   - policy: What happens to a field the request already has.
    public init(_ headers: [String: String], policy: Policy = .keepExisting) {
        self.init(Headers(headers), policy: policy)
    }

    /// Adds the fields `headers` returns, asked again for every attempt of every request.
    ///
    /// An error `headers` throws ends the call unchanged, and nothing is sent.
    /// - Parameters:
    ///   - policy: What happens to a field the request already has.
    ///   - headers: Returns the fields; keep it fast, it runs before each attempt.
    public init(policy: Policy = .keepExisting, headers: @escaping @Sendable () async throws -> Headers) {
        self.policy = policy
        self.makeHeaders = headers
    }

    /// Adds the fields of `value`, encoded for every attempt: each non-nil property becomes a field named
    /// after its coding key (use `CodingKeys` to spell names such as `X-App-Version`).
    ///
    /// Strings, numbers, booleans (`true`/`false`) and URLs are written as text, dates as an HTTP date
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`) unless the value is ``EncodingStrategy/CustomDate``. An array, nested
    /// object or data fails the call with ``ApiError/InvalidRequestReason/encoding(_:)``, as does a value
    /// that is not keyed; nothing is sent then.
    /// - Parameters:
    ///   - value: A struct (or dictionary) of header values.
    ///   - policy: What happens to a field the request already has.
    public init(encoding value: some Encodable & Sendable, policy: Policy = .keepExisting) {
        self.init(policy: policy) { try Self.headers(encoding: value) }
    }

    /// Adds `Authorization: Basic …` with `username:password` in UTF-8 and Base64 (RFC 7617).
    ///
    /// A username with a colon, or a username or password with a control character, fails the call with
    /// ``ApiError/InvalidRequestReason/invalidHeader(name:)`` for `Authorization`; nothing is sent then.
    /// - Parameters:
    ///   - username: The user ID.
    ///   - password: The password.
    ///   - policy: What happens when the request already has an `Authorization` field.
    /// - Returns: The middleware.
    public static func basic(username: String, password: String, policy: Policy = .keepExisting) -> HeadersMiddleware {
        let hasNoControls: (String) -> Bool = { $0.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } }
        let isValid = !username.contains(":") && hasNoControls(username) && hasNoControls(password)
        let value = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        return HeadersMiddleware(policy: policy) {
            guard isValid else { throw ApiError.invalidRequest(.invalidHeader(name: "Authorization")) }
            return ["Authorization": value]
        }
    }

    /// Adds `Authorization: Bearer <token>`.
    /// - Parameters:
    ///   - token: The access token.
    ///   - policy: What happens when the request already has an `Authorization` field.
    /// - Returns: The middleware.
    public static func bearer(_ token: String, policy: Policy = .keepExisting) -> HeadersMiddleware {
        HeadersMiddleware(["Authorization": "Bearer " + token], policy: policy)
    }

    /// Adds `Authorization: Bearer <token>` with the token `token` returns, asked for every attempt; no
    /// field when it returns `nil`. To refresh a rejected token, use ``TokenRefreshMiddleware`` instead.
    /// - Parameters:
    ///   - policy: What happens when the request already has an `Authorization` field.
    ///   - token: Returns the current access token, or `nil` when there is none.
    /// - Returns: The middleware.
    public static func bearer(
        policy: Policy = .keepExisting,
        token: @escaping @Sendable () async throws -> String?
    ) -> HeadersMiddleware {
        HeadersMiddleware(policy: policy) {
            guard let token = try await token() else { return Headers() }
            return ["Authorization": "Bearer " + token]
        }
    }

    /// Handles one request: adds the fields, then sends it on.
    /// - Throws: ``ApiError/invalidRequest(_:)`` for an invalid field, which is then not sent; what the
    ///   fields' source throws; and whatever the rest of the chain throws.
    public func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let headers = try await makeHeaders()
        try headers.validate()
        return try await next(applying(headers, to: request))
    }

    /// `request` with `headers` added according to ``policy``.
    func applying(_ headers: Headers, to request: ApiRequest) -> ApiRequest {
        var result = request
        var decided: [String: Bool] = [:]
        for field in headers {
            let key = field.name.lowercased()
            let isAdded: Bool
            if let decision = decided[key] {
                isAdded = decision
            } else {
                let exists = request.headers.contains(field.name)
                isAdded = !exists || policy == .overwrite
                if exists && isAdded {
                    result.headers.remove(field.name)
                }
                decided[key] = isAdded
            }
            if isAdded {
                result.headers.add(field.value, for: field.name)
            }
        }
        return result
    }
}

// MARK: - Encodable values

extension HeadersMiddleware {
    /// The fields of `value`; see ``init(encoding:policy:)``.
    static func headers(encoding value: any Encodable) throws -> Headers {
        let tree: ParameterValue?
        do {
            tree = try ParameterTreeEncoder().encode(value)
        } catch {
            throw ApiError.encoding(error)
        }
        guard let tree else { return Headers() }
        guard case .object(let entries) = tree else {
            throw ApiError.invalidRequest(
                .encoding("header fields must be encoded from a keyed value, not \(tree.kindName)")
            )
        }
        var headers = Headers()
        for (name, value) in entries {
            switch value {
            case .null:
                continue
            case .string(let text), .number(let text):
                headers.add(text, for: name)
            case .bool(let flag):
                headers.add(flag ? "true" : "false", for: name)
            case .date(let date):
                headers.add(httpDate(date), for: name)
            case .data, .attachment, .array, .object:
                throw ApiError.invalidRequest(.encoding("\(name): \(value.kindName) cannot be a header value"))
            }
        }
        return headers
    }

    /// `date` as an RFC 9110 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`, whole seconds.
    static func httpDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][((parts.weekday ?? 1) - 1) % 7]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][
            ((parts.month ?? 1) - 1) % 12
        ]
        let two = { (number: Int?) in String(format: "%02d", number ?? 0) }
        return "\(day), \(two(parts.day)) \(month) \(String(format: "%04d", parts.year ?? 0)) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }
}
