import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPCacheMiddleware {
    /// What the cache makes of one request: the secrets in force, the user it is made for, its store
    /// key, and the digests of its `Vary` fields — never a secret value itself.
    struct Lookup: Sendable {
        /// The request's URL.
        let url: URL
        /// `url` without user information, fragment and secret query parameters.
        let publicURL: URL
        /// The cache's secrets and the session's.
        let secrets: Secrets
        /// Whether the request has a secret header field, a secret query parameter or user information.
        let hasCredentials: Bool
        /// The user the request's entries belong to: `nil` for anyone.
        let owner: String?
        /// The store's key; `nil` when the request has credentials that cannot be told apart without
        /// a digest key, so it neither uses nor fills the store.
        let key: String?
        /// The request's header fields, by lower-cased name.
        private let headers: [String: String]
        private let digestKey: HTTPCacheMiddleware.DigestKey?

        init(request: ApiRequest, url: URL, cache: HTTPCacheMiddleware, sessionSecrets: Secrets) {
            let secrets = cache.secrets.union(sessionSecrets)
            var headers: [String: String] = [:]
            for field in request.headers {
                let name = field.name.lowercased()
                headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
            }
            let credentials = Self.credentials(headers: headers, url: url, secrets: secrets)
            self.url = url
            self.secrets = secrets
            self.headers = headers
            self.digestKey = cache.digestKey
            publicURL = Self.publicURL(url, secrets: secrets)
            hasCredentials = !credentials.isEmpty
            var identified = true
            switch cache.mode {
            case .shared:
                owner = nil
            case .private:
                if let identity = cache.identify(request) {
                    owner =
                        "user:sha256:" + SHA256.hex(of: HTTPCacheMiddleware.DigestKey.message(["identity", identity]))
                } else if credentials.isEmpty {
                    owner = nil
                } else if let digestKey = cache.digestKey {
                    owner = "credentials:" + digestKey.digest(["credentials"] + credentials)
                } else {
                    owner = nil
                    identified = false
                }
            }
            key = identified ? Self.key(for: publicURL, owner: owner) : nil
        }

        /// The keys whose entries an unsafe request to `target` invalidates: the anonymous one and, in
        /// the private mode, the request's user's.
        func keys(for target: URL) -> [String] {
            let url = Self.publicURL(target, secrets: secrets)
            return [Self.key(for: url, owner: nil)] + (owner.map { [Self.key(for: url, owner: $0)] } ?? [])
        }

        /// What is kept of the request's values of the fields `names`: `sha256:` digests, `hmac-sha256:`
        /// ones for secret fields; `nil` when such a response may not be stored or served — `Vary: *`,
        /// more than ``HTTPCacheMiddleware/maximumVaryFields`` names, or a secret field without a key.
        func varyValues(for names: [String]) -> [String: String]? {
            guard !names.contains("*"), names.count <= HTTPCacheMiddleware.maximumVaryFields else { return nil }
            var values: [String: String] = [:]
            for name in names {
                let value = headers[name] ?? ""
                if secrets.isSecretHeader(name) {
                    guard let digestKey else { return nil }
                    values[name] = digestKey.digest(["vary", name, value])
                } else {
                    values[name] = "sha256:" + SHA256.hex(of: value.utf8)
                }
            }
            return values
        }

        /// `GET`, the URL, and the owner when there is one.
        private static func key(for publicURL: URL, owner: String?) -> String {
            "GET " + publicURL.absoluteString + (owner.map { " " + $0 } ?? "")
        }

        /// The request's credentials in a fixed order: each secret header field, secret query parameter
        /// and the user information as kind, name and value.
        private static func credentials(headers: [String: String], url: URL, secrets: Secrets) -> [String] {
            var found: [[String]] = []
            for (name, value) in headers where secrets.isSecretHeader(name) {
                found.append(["header", name, value])
            }
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            for item in components?.queryItems ?? [] where secrets.isSecretParameter(item.name) {
                found.append(["query", item.name, item.value ?? ""])
            }
            if components?.user != nil || components?.password != nil {
                found.append(["user", components?.user ?? "", components?.password ?? ""])
            }
            return found.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 }
        }

        /// `url` without user information, fragment and secret query parameters.
        static func publicURL(_ url: URL, secrets: Secrets) -> URL {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
            components.queryItems = components.queryItems.map { items in
                items.filter { !secrets.isSecretParameter($0.name) }
            }
            if components.queryItems?.isEmpty ?? false {
                components.queryItems = nil
            }
            components.user = nil
            components.password = nil
            components.fragment = nil
            return components.url ?? url
        }
    }
}
