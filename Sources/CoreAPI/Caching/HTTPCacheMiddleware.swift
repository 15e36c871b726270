#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    public import Foundation
#endif

/// An HTTP cache (RFC 9111) as a middleware, over any ``HTTPCacheMiddleware/Store``, on every transport: private
/// by default, one user's responses kept apart from another's, or shared for a server.
///
/// For `GET` it answers from the store while a stored response is fresh (`max-age`, else `Expires`
/// against `Date`, else — only where the RFC allows — a heuristic from `Last-Modified`), counting its
/// age from `Age`, `Date` and the time it has been stored. A stale response, or one stored with
/// `no-cache`, is revalidated with `If-None-Match` and `If-Modified-Since`: a `304` refreshes the stored
/// header fields and is served as the stored response. `no-store` in the request or the response keeps
/// a response out of the store. A key keeps up to ``HTTPCacheMiddleware/StoredResponse/maximumVariantsPerKey`` (8) variants
/// for requests that differ in the fields the response's `Vary` names; a response with `Vary: *`, or
/// whose `Vary` names more than ``maximumVaryFields`` fields, is not stored. A `HEAD` is answered from a
/// fresh stored `GET`. A method other than `GET`, `HEAD`, `OPTIONS` and `TRACE` whose response is not
/// an error (RFC 9111 §4.4) removes what is stored for its URL and for the URLs of the response's
/// `Location` and `Content-Location` of the same origin. A method's ``CallOptions/cachePolicy`` can ask
/// for the store or the network alone instead.
///
/// **What is stored.** The key is `GET`, the URL without user information, fragment and secret query
/// parameters, and — for a request with credentials in the private mode — a digest of the user (see
/// below). The entry holds the status, the header fields without `Set-Cookie` and without the secret
/// ones, the body, the times, the classification, and digests of the request fields `Vary` names:
/// SHA-256 for ordinary fields, a keyed HMAC-SHA256 (``HTTPCacheMiddleware/DigestKey``) for secret ones. No secret
/// value — no token, cookie, secret header or secret query parameter — reaches a store, a key or a
/// file name. Secrets are ``secrets`` together with the session's ``SessionPolicy/secrets``.
///
/// **Users kept apart (``Mode/private``, the default).** A request carries credentials when it has a
/// secret header field (`Authorization`, `Cookie`, …), a secret query parameter or user information.
/// Its entries belong to its user: the user is `identify(request)` when the app supplies one (so a
/// token refresh keeps the user's entries), else the HMAC-SHA256 of the credentials under
/// ``digestKey``, and a stored response answers only requests of the same user. Without an identity
/// and without a ``digestKey``, a request with credentials neither uses nor fills the store.
///
/// **Shared (``Mode/shared``, for a server calling an API on behalf of many users).** As RFC 9111
/// asks of a shared cache: `s-maxage` wins over `max-age`; `private` responses and responses with
/// `Set-Cookie` are not stored; a response to a request with credentials is stored — and then
/// answers every user — only when it says `public`, `s-maxage` or `must-revalidate` (§3.5).
///
/// ```swift
/// let cache = HTTPCacheMiddleware(store: try HTTPCacheMiddleware.FileStore(directory: cachesFolder))
/// let session = ApiSession(hostProvider: hosts, middlewares: [cache])
/// ```
public struct HTTPCacheMiddleware: Middleware {
    /// Whom a stored response may answer.
    public enum Mode: Sendable, Hashable {
        /// A private cache for the users of one app: a response to a request with credentials answers
        /// only requests of the same user; `private` responses are stored; `s-maxage` is ignored.
        case `private`
        /// A shared cache (RFC 9111 §3.5), as a server needs: `private` and `Set-Cookie` responses are
        /// not stored, `s-maxage` is honoured, and a response to a request with credentials is stored
        /// for everyone only when it says `public`, `s-maxage` or `must-revalidate`.
        case shared
    }

    /// The most fields a response's `Vary` may name for it to be stored: 32.
    public static let maximumVaryFields = 32

    /// Where responses are kept.
    public let store: any HTTPCacheMiddleware.Store
    /// Whom a stored response may answer; ``Mode/private`` by default.
    public let mode: Mode
    /// Which query parameters and header fields are secret, besides the session's
    /// ``SessionPolicy/secrets``.
    public let secrets: Secrets
    /// The key of the digests that stand for credentials and secret `Vary` fields; `nil` stores no
    /// response that needs one.
    public let digestKey: HTTPCacheMiddleware.DigestKey?
    /// The classification of a request's entry, such as the signed-in user's identifier, for
    /// ``HTTPCacheMiddleware/Store/removeResponses(classifiedAs:)``.
    public let classify: @Sendable (ApiRequest) -> String?
    /// The user a request is made for, when the app knows it; `nil` tells users apart by their
    /// credentials.
    public let identify: @Sendable (ApiRequest) -> String?

    /// Creates a cache.
    /// - Parameters:
    ///   - store: Where responses are kept.
    ///   - mode: ``Mode/private`` (the default) in an app, ``Mode/shared`` on a server.
    ///   - secrets: Secret query parameters and header fields besides the session's; the defaults of
    ///     ``Secrets`` by default.
    ///   - digestKey: The key of the digests that stand for secrets; ``HTTPCacheMiddleware/DigestKey/ephemeral`` (in
    ///     memory, for this process) by default.
    ///   - classify: The classification of a request's entry; none by default.
    ///   - identify: The user a request is made for, kept as a SHA-256 digest in the key; by default
    ///     none, and users are told apart by a keyed digest of their credentials.
    public init(
        store: any HTTPCacheMiddleware.Store,
        mode: Mode = .private,
        secrets: Secrets = Secrets(),
        digestKey: HTTPCacheMiddleware.DigestKey? = .ephemeral,
        classify: @escaping @Sendable (ApiRequest) -> String? = { _ in nil },
        identify: @escaping @Sendable (ApiRequest) -> String? = { _ in nil }
    ) {
        self.store = store
        self.mode = mode
        self.secrets = secrets
        self.digestKey = digestKey
        self.classify = classify
        self.identify = identify
    }

    /// Answers `request` from the store or the network, as the policy and RFC 9111 say.
    public func intercept(
        _ request: ApiRequest,
        context: MiddlewareContext,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let method = (request.method.rawValue).uppercased()
        let url = request.url
        let lookup = Lookup(request: request, url: url, cache: self, sessionSecrets: context.session.policy.secrets)
        if let storedLookup = context.storedLookup {
            // Answered from the store or not at all, whatever the method's policy.
            guard method == "GET", let stored = await usableResponse(for: lookup) else { throw StoredLookup.Miss() }
            let age = CacheFreshness.age(of: stored, at: Date())
            storedLookup.served(age: age)
            return try served(stored, url: url, age: age)
        }
        switch method {
        case "GET":
            return try await get(
                request,
                lookup: lookup,
                policy: context.options.cachePolicy,
                next: next
            )
        case "HEAD":
            if let stored = await usableResponse(for: lookup), isFresh(stored, request: request) {
                return try served(stored, url: url, body: Data())
            }
            return try await next(request)
        case "OPTIONS", "TRACE":
            return try await next(request)
        default:
            let response = try await next(request)
            if (200..<400).contains(response.statusCode) {
                await invalidate(after: response, lookup: lookup)
            }
            return response
        }
    }

    /// The stored response for `lookup` when one applies to it: same key (URL and user), matching `Vary`.
    private func usableResponse(for lookup: Lookup) async -> HTTPCacheMiddleware.StoredResponse? {
        guard let key = lookup.key else { return nil }
        return await store.response(for: key) { stored in
            let names = Self.varyNames(of: stored.headers)
            guard let values = lookup.varyValues(for: names) else { return false }
            return names.allSatisfy { values[$0] == stored.varyValues[$0] }
        }
    }

    private func get(
        _ request: ApiRequest,
        lookup: Lookup,
        policy: HTTPCacheMiddleware.Policy,
        next: @Sendable (ApiRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let url = lookup.url
        guard let key = lookup.key else {
            // Credentials that cannot be told apart without a secret: no store for this request.
            if policy == .storedOnly { return try RawResponse(url: url, statusCode: 504) }
            return try await next(request)
        }
        let stored = policy == .reloadIgnoringStore ? nil : await usableResponse(for: lookup)
        switch policy {
        case .storedOnly:
            guard let stored else { return try RawResponse(url: url, statusCode: 504) }
            return try served(stored, url: url)
        case .storedElseLoad:
            if let stored { return try served(stored, url: url) }
        case .useHTTPSemantics:
            if let stored, isFresh(stored, request: request) {
                return try served(stored, url: url)
            }
        case .revalidate, .reloadIgnoringStore:
            break
        }
        var outgoing = request
        if let stored {
            let headers = stored.headers
            if let tag = headers["ETag"] {
                outgoing.headers.set(tag, for: "If-None-Match")
            }
            if let modified = headers["Last-Modified"] {
                outgoing.headers.set(modified, for: "If-Modified-Since")
            }
        }
        let sent = Date()
        let response = try await next(outgoing)
        let received = Date()
        if response.statusCode == 304, let stored {
            var refreshed = stored
            refreshed.headerFields = refreshedFields(of: stored, with: response.headers, secrets: lookup.secrets)
            refreshed.requestTime = sent
            refreshed.responseTime = received
            await store.store(refreshed, for: key)
            return try served(refreshed, url: url, age: 0)
        }
        if let entry = storedResponse(response, request: request, lookup: lookup, sent: sent, received: received) {
            await store.store(entry, for: key)
        } else if response.statusCode < 500 {
            await store.removeResponse(for: key)
        }
        return response
    }

    /// Removes what is stored for the request's URL and for the same-origin URLs of the response's
    /// `Location` and `Content-Location` (RFC 9111 §4.4), for every user in the shared mode and for
    /// the request's user and anonymous requests in the private one.
    private func invalidate(after response: RawResponse, lookup: Lookup) async {
        var targets = [lookup.url]
        for name in ["Location", "Content-Location"] {
            if let value = response.headers[name], let target = URL(string: value, relativeTo: lookup.url)?.absoluteURL,
                Redirect.sameOrigin(lookup.url, target)
            {
                targets.append(target)
            }
        }
        for target in targets {
            for key in lookup.keys(for: target) {
                await store.removeResponse(for: key)
            }
        }
    }

    /// Whether `stored` may answer `request` without asking the server.
    private func isFresh(_ stored: HTTPCacheMiddleware.StoredResponse, request: ApiRequest) -> Bool {
        let requestControl = CacheControl(request.headers)
        if CacheControl(stored.headers).has("no-cache") || requestControl.has("no-cache")
            || (request.headers["Pragma"]?.lowercased().contains("no-cache") ?? false)
        {
            return false
        }
        let age = CacheFreshness.age(of: stored, at: Date())
        if let maximum = requestControl.seconds("max-age"), age > maximum {
            return false
        }
        return CacheFreshness.lifetime(of: stored, shared: mode == .shared) > age
    }

    /// Whether `response` may be stored (RFC 9111 §3): an answer to a `GET` with a status the cache
    /// understands, no `no-store` on either side, and explicit freshness, a validator, or a status that
    /// allows a heuristic; in the shared mode neither `private` nor `Set-Cookie`, and for a request
    /// with credentials `public`, `s-maxage` or `must-revalidate` (§3.5).
    private func isStorable(_ response: RawResponse, request: ApiRequest, lookup: Lookup) -> Bool {
        let headers = response.headers
        let control = CacheControl(headers)
        guard !control.has("no-store"),
            !CacheControl(request.headers).has("no-store"),
            response.statusCode != 206, response.statusCode < 500, response.statusCode >= 200
        else { return false }
        let shared = mode == .shared
        if shared {
            if control.has("private") || headers["Set-Cookie"] != nil || headers["Set-Cookie2"] != nil {
                return false
            }
            if lookup.hasCredentials,
                !(control.has("public") || control.seconds("s-maxage") != nil || control.has("must-revalidate"))
            {
                return false
            }
        }
        let explicit =
            control.seconds("max-age") != nil || headers["Expires"] != nil || control.has("public")
            || (shared && control.seconds("s-maxage") != nil)
        let validated = headers["ETag"] != nil || headers["Last-Modified"] != nil
        return explicit || (validated && CacheFreshness.heuristicallyCacheable.contains(response.statusCode))
    }

    /// What is stored of `response`, or `nil` when it may not be: no secret header fields, digests of
    /// the request's values of the `Vary` fields.
    private func storedResponse(
        _ response: RawResponse,
        request: ApiRequest,
        lookup: Lookup,
        sent: Date,
        received: Date
    ) -> HTTPCacheMiddleware.StoredResponse? {
        guard isStorable(response, request: request, lookup: lookup),
            let values = lookup.varyValues(for: Self.varyNames(of: response.headers))
        else { return nil }
        return HTTPCacheMiddleware.StoredResponse(
            url: lookup.publicURL,
            statusCode: response.statusCode,
            headers: Self.publicHeaders(response.headers, secrets: lookup.secrets),
            body: response.data,
            requestTime: sent,
            responseTime: received,
            classification: classify(request),
            varyValues: values
        )
    }

    /// The stored fields updated with those of a `304` (RFC 9111 §3.2), except its framing fields.
    private func refreshedFields(
        of stored: HTTPCacheMiddleware.StoredResponse,
        with update: Headers,
        secrets: Secrets
    ) -> [[String]] {
        let kept: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-range"]
        var headers = stored.headers
        let fields = Self.publicHeaders(update, secrets: secrets).filter { !kept.contains($0.name.lowercased()) }
        for field in fields {
            headers[field.name] = nil
        }
        for field in fields {
            headers.add(field.value, for: field.name)
        }
        return headers.map { [$0.name, $0.value] }
    }

    /// A stored response as the answer, with its current `Age`.
    private func served(
        _ stored: HTTPCacheMiddleware.StoredResponse,
        url: URL,
        body: Data? = nil,
        age: TimeInterval? = nil
    ) throws(ApiError) -> RawResponse {
        var headers = stored.headers
        let seconds = age ?? CacheFreshness.age(of: stored, at: Date())
        headers["Age"] = String(Int(seconds.rounded(.down)))
        return try RawResponse(url: url, statusCode: stored.statusCode, headers: headers, data: body ?? stored.body)
    }

    /// The lower-cased field names of every `Vary` field of `headers`, each once, in order.
    static func varyNames(of headers: Headers) -> [String] {
        var seen: Set<String> = []
        return headers.values(for: "Vary").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// `headers` without `Set-Cookie` and secret fields.
    private static func publicHeaders(_ headers: Headers, secrets: Secrets) -> Headers {
        Headers(
            headers.filter { field in
                let name = field.name.lowercased()
                return name != "set-cookie" && name != "set-cookie2" && !secrets.isSecretHeader(name)
            }
        )
    }
}

extension HTTPCacheMiddleware {
    /// What ``ApiSession/cachedThenFresh(_:cache:)`` delivers, in order: the stored value when there is
    /// one, then the fresh one — or, when the network fails after a stored value was delivered, the failure.
    public enum CacheThenNetworkEvent<Output: Sendable>: Sendable {
        /// The value made from the stored response, and how old that response is.
        case cached(Output, age: Duration)
        /// The value made from the server's answer (a `304` counts: the stored body, confirmed).
        case fresh(Output)
        /// The network call failed after a stored value was delivered; the stored value stands.
        case failed(ApiError)
    }
}
