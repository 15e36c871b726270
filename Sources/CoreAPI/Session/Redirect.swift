import Foundation

/// One redirect hop, decided by the rules of ``SessionPolicy`` — the same for every transport.
///
/// Transports return a `3xx` as it is; ``ApiSession`` asks ``next(after:request:chain:policy:)``
/// whether to follow it and sends the next request itself. This is a pure function of the response,
/// the request that got it and the chain so far, so the rules are tested without a network.
struct Redirect: Sendable {
    /// What the chain of hops has done so far.
    struct Chain: Sendable {
        /// The URL the call started with; leaving its origin strips secrets.
        var origin: URL?
        /// Hops followed so far.
        var count = 0
        /// Whether a hop left the original origin; secrets then stay stripped.
        var leftOrigin = false
    }

    /// The request of the next hop, with the body when it goes along (307 and 308, and 301 or 302
    /// answering anything but `POST`).
    var request: ApiRequest
    /// The chain including this hop.
    var chain: Chain

    /// The hop to follow after `response` to `request`: `nil` when the response is the answer (not a
    /// redirect, no `Location`, or redirects off), or the typed failure when the policy refuses it.
    /// - Parameters:
    ///   - response: The response to `request`.
    ///   - request: The request as sent.
    ///   - chain: The hops before this one.
    ///   - policy: The limits and the secret header names.
    static func next(
        after response: ResponseHead,
        request: ApiRequest,
        chain: Chain,
        policy: SessionPolicy
    ) -> Result<Redirect?, ApiError> {
        let status = response.statusCode
        guard HTTPStatus.isFollowedRedirect(status), policy.maximumRedirects > 0,
            let location = response.field("Location")
        else { return .success(nil) }
        let count = chain.count + 1
        // Resolved here, never by the engine: Linux takes `data:`, `mailto:` or `file:` values as paths.
        let base = response.url
        let resolved = URL(string: location, relativeTo: base)?.absoluteURL
        let scheme = resolved?.scheme?.lowercased() ?? ""
        // `HTTPS://host/` is an https URL, but Linux finds no protocol for a scheme in capitals.
        let target = resolved.map { scheme == "http" || scheme == "https" ? lowercasingScheme(of: $0) : $0 }
        func refuse(_ reason: ApiError.RedirectFailure.Reason) -> Result<Redirect?, ApiError> {
            .failure(.redirect(.init(reason: reason, statusCode: status, target: target ?? URL(string: location))))
        }
        guard count <= policy.maximumRedirects else {
            return refuse(.tooManyRedirects(limit: policy.maximumRedirects))
        }
        guard let target, scheme == "http" || scheme == "https", target.host != nil else {
            return refuse(.unsupportedScheme(scheme))
        }
        if base.scheme?.lowercased() == "https", scheme == "http" {
            return refuse(.insecureDowngrade)
        }
        var next = request
        let originalMethod = next.method.rawValue.uppercased()
        next.url = target
        var keepsBody = true
        switch status {
        case 307, 308:
            break
        case 303:
            next.method = originalMethod == "HEAD" ? .head : .get
            keepsBody = false
        default:
            // 301 and 302: a POST becomes a GET, as every browser and URLSession do.
            if originalMethod == "POST" {
                next.method = .get
                keepsBody = false
            }
        }
        if !keepsBody {
            next.body = .none
            next.pendingBodyFile = nil
            next.headers.remove("Content-Type")
            next.headers.remove("Content-Length")
        }
        var chain = chain
        chain.count = count
        if !sameOrigin(chain.origin ?? request.url, target) {
            chain.leftOrigin = true
        }
        if chain.leftOrigin {
            for name in next.headers.fields.map(\.name) where policy.secrets.isSecretHeader(name) {
                next.headers.remove(name)
            }
        }
        return .success(Redirect(request: next, chain: chain))
    }

    /// `url` with its scheme in lower case.
    static func lowercasingScheme(of url: URL) -> URL {
        guard let scheme = url.scheme, scheme != scheme.lowercased(),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.scheme = scheme.lowercased()
        return components.url ?? url
    }

    /// Whether two URLs share scheme, host and port (default ports filled in).
    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(lhs) == origin(rhs)
    }
}
