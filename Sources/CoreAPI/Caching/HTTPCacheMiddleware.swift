#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// A private HTTP cache (RFC 9111) as a middleware, over any ``ResponseStore``, on every transport.
///
/// For `GET` it answers from the store while a stored response is fresh (`max-age`, else `Expires`
/// against `Date`, else — only where the RFC allows — a heuristic from `Last-Modified`), counting its
/// age from `Age`, `Date` and the time it has been stored; `s-maxage` is ignored, as in any private
/// cache, and `private` responses are stored. A stale response, or one stored with `no-cache`, is
/// revalidated with `If-None-Match` and `If-Modified-Since`: a `304` refreshes the stored header fields
/// and is served as the stored response. `no-store` in the request or the response keeps a response out
/// of the store. A stored response is used only when the request has the values the response's `Vary`
/// names (`Vary: *` never matches). A `HEAD` is answered from a fresh stored `GET`. A `POST`, `PUT`,
/// `PATCH` or `DELETE` that succeeds removes what is stored for its URL. A method's
/// ``ApiMethod/cachePolicy`` can ask for the store or the network alone instead.
///
/// Keys are the method and the URL without secret query parameters (``Redaction``'s), and stored
/// header fields leave out `Set-Cookie` and secret ones: no secret reaches the store. Since the key does
/// not tell users apart, an app whose users share a device gives each user's entries a classification
/// (`classify`) and removes them with ``ResponseStore/removeResponses(classifiedAs:)`` at logout.
///
/// ```swift
/// let cache = HTTPCacheMiddleware(store: try FileResponseStore(directory: cachesFolder))
/// let session = ApiSession(hostProvider: hosts, middlewares: [cache])
/// ```
public struct HTTPCacheMiddleware: Middleware {
    /// Where responses are kept.
    public let store: any ResponseStore
    /// Which query parameters and header fields are secret.
    public let redaction: Redaction
    /// The classification of a request's entry, such as the signed-in user's identifier.
    public let classify: @Sendable (URLRequest) -> String?

    /// Creates a cache.
    /// - Parameters:
    ///   - store: Where responses are kept.
    ///   - redaction: Which query parameters and header fields are secret; the default set by default.
    ///   - classify: The classification of a request's entry; none by default.
    public init(
        store: any ResponseStore,
        redaction: Redaction = Redaction(),
        classify: @escaping @Sendable (URLRequest) -> String? = { _ in nil }
    ) {
        self.store = store
        self.redaction = redaction
        self.classify = classify
    }

    /// Overrides the method's ``ApiMethod/cachePolicy`` for the calls of a task
    /// (``ApiSession/cachedThenFresh(_:cache:)`` revalidates with it).
    @TaskLocal static var policyOverride: CachePolicy?

    /// Answers `request` from the store or the network, as the policy and RFC 9111 say.
    public func intercept(
        _ request: URLRequest,
        context: MiddlewareContext,
        next: @Sendable (URLRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let method = (request.httpMethod ?? "GET").uppercased()
        guard let url = request.url else { return try await next(request) }
        switch method {
        case "GET":
            return try await get(
                request,
                url: url,
                policy: Self.policyOverride ?? context.method.cachePolicy,
                next: next
            )
        case "HEAD":
            if let stored = await usableResponse(for: request, url: url), isFresh(stored, request: request) {
                return try served(stored, url: url, body: Data())
            }
            return try await next(request)
        case "POST", "PUT", "PATCH", "DELETE":
            let response = try await next(request)
            if (200..<400).contains(response.statusCode) {
                await store.removeResponse(for: key(for: url))
            }
            return response
        default:
            return try await next(request)
        }
    }

    /// The stored response for `request` when the stored one applies to it: same key, matching `Vary`.
    func usableResponse(for request: URLRequest, url: URL) async -> StoredResponse? {
        guard let stored = await store.response(for: key(for: url)) else { return nil }
        let vary = Self.varyNames(of: stored.headers)
        if vary.contains("*") { return nil }
        for name in vary where (request.value(forHTTPHeaderField: name) ?? "") != (stored.varyValues[name] ?? "") {
            return nil
        }
        return stored
    }

    /// The store's key for `url`: `GET` and the URL without secret query parameters.
    func key(for url: URL) -> String {
        "GET " + publicURL(url).absoluteString
    }

    private func get(
        _ request: URLRequest,
        url: URL,
        policy: CachePolicy,
        next: @Sendable (URLRequest) async throws -> RawResponse
    ) async throws -> RawResponse {
        let stored = policy == .reloadIgnoringStore ? nil : await usableResponse(for: request, url: url)
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
                outgoing.setValue(tag, forHTTPHeaderField: "If-None-Match")
            }
            if let modified = headers["Last-Modified"] {
                outgoing.setValue(modified, forHTTPHeaderField: "If-Modified-Since")
            }
        }
        let sent = Date()
        let response = try await next(outgoing)
        let received = Date()
        if response.statusCode == 304, let stored {
            var refreshed = stored
            refreshed.headerFields = refreshedFields(of: stored, with: response.headers)
            refreshed.requestTime = sent
            refreshed.responseTime = received
            await store.store(refreshed, for: key(for: url))
            return try served(refreshed, url: url, age: 0)
        }
        if isStorable(response, request: request) {
            await store.store(
                storedResponse(response, request: request, url: url, sent: sent, received: received),
                for: key(for: url)
            )
        } else if response.statusCode < 500 {
            await store.removeResponse(for: key(for: url))
        }
        return response
    }

    /// Whether `stored` may answer `request` without asking the server.
    private func isFresh(_ stored: StoredResponse, request: URLRequest) -> Bool {
        let requestControl = CacheControl(Headers(request.allHTTPHeaderFields ?? [:]))
        if CacheControl(stored.headers).has("no-cache") || requestControl.has("no-cache")
            || (request.value(forHTTPHeaderField: "Pragma")?.lowercased().contains("no-cache") ?? false)
        {
            return false
        }
        let age = CacheFreshness.age(of: stored, at: Date())
        if let maximum = requestControl.seconds("max-age"), age > maximum {
            return false
        }
        return CacheFreshness.lifetime(of: stored) > age
    }

    /// Whether `response` may be stored (RFC 9111 §3): an answer to a `GET` with a status the cache
    /// understands, no `no-store` on either side, and explicit freshness, a validator, or a status that
    /// allows a heuristic.
    private func isStorable(_ response: RawResponse, request: URLRequest) -> Bool {
        let headers = response.headers
        let control = CacheControl(headers)
        guard !control.has("no-store"),
            !CacheControl(Headers(request.allHTTPHeaderFields ?? [:])).has("no-store"),
            response.statusCode != 206, response.statusCode < 500, response.statusCode >= 200
        else { return false }
        let explicit = control.seconds("max-age") != nil || headers["Expires"] != nil || control.has("public")
        let validated = headers["ETag"] != nil || headers["Last-Modified"] != nil
        return explicit || (validated && CacheFreshness.heuristicallyCacheable.contains(response.statusCode))
    }

    /// What is stored of `response`: no secret header fields, the request's values of the `Vary` fields.
    private func storedResponse(
        _ response: RawResponse,
        request: URLRequest,
        url: URL,
        sent: Date,
        received: Date
    ) -> StoredResponse {
        let vary = Self.varyNames(of: response.headers)
        var values: [String: String] = [:]
        for name in vary where name != "*" {
            values[name] = request.value(forHTTPHeaderField: name) ?? ""
        }
        return StoredResponse(
            url: publicURL(url),
            statusCode: response.statusCode,
            headers: publicHeaders(response.headers),
            body: response.data,
            requestTime: sent,
            responseTime: received,
            classification: classify(request),
            varyValues: values
        )
    }

    /// The stored fields updated with those of a `304` (RFC 9111 §3.2), except its framing fields.
    private func refreshedFields(of stored: StoredResponse, with update: Headers) -> [[String]] {
        let kept: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-range"]
        var headers = stored.headers
        for field in publicHeaders(update) where !kept.contains(field.name.lowercased()) {
            headers[field.name] = nil
        }
        for field in publicHeaders(update) where !kept.contains(field.name.lowercased()) {
            headers.add(field.value, for: field.name)
        }
        return headers.map { [$0.name, $0.value] }
    }

    /// A stored response as the answer, with its current `Age`.
    private func served(
        _ stored: StoredResponse,
        url: URL,
        body: Data? = nil,
        age: TimeInterval? = nil
    ) throws(ApiError) -> RawResponse {
        var headers = stored.headers
        let seconds = age ?? CacheFreshness.age(of: stored, at: Date())
        headers["Age"] = String(Int(seconds.rounded(.down)))
        return try RawResponse(url: url, statusCode: stored.statusCode, headers: headers, data: body ?? stored.body)
    }

    /// The lower-cased field names of every `Vary` field of `headers`.
    private static func varyNames(of headers: Headers) -> [String] {
        headers.values(for: "Vary").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    private func publicURL(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        components.queryItems = components.queryItems.map { items in
            items.filter { !redaction.isSecretParameter($0.name) }
        }
        if components.queryItems?.isEmpty ?? false {
            components.queryItems = nil
        }
        components.user = nil
        components.password = nil
        components.fragment = nil
        return components.url ?? url
    }

    private func publicHeaders(_ headers: Headers) -> Headers {
        Headers(
            headers.filter { field in
                let name = field.name.lowercased()
                return name != "set-cookie" && name != "set-cookie2" && !redaction.isSecretHeader(name)
            }
        )
    }
}
