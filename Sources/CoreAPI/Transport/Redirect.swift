import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A redirect to follow: the next request and the state of the chain so far.
///
/// The rules are ``TransportPolicy``'s; ``ApiSession`` sends the hop with a new task.
struct Redirect: Sendable {
    var request: URLRequest
    /// Whether the body goes along (307 and 308).
    var keepsBody: Bool
    var count: Int
    var leftOrigin: Bool

    /// The hop to follow after `response`: `nil` when redirects are off (the `3xx` is the answer), or
    /// the typed failure when the policy refuses it.
    static func next(
        after response: HTTPURLResponse,
        proposed: URLRequest,
        options: TaskOptions
    ) -> Result<Redirect?, ApiError> {
        let status = response.statusCode
        guard options.maximumRedirects > 0 else { return .success(nil) }
        let count = options.redirectCount + 1
        // Resolve Location ourselves: Linux takes `data:`, `mailto:` or `file:` values as paths.
        let location = response.value(forHTTPHeaderField: "Location") ?? ""
        let target = URL(string: location, relativeTo: response.url)?.absoluteURL
        let scheme = target?.scheme?.lowercased() ?? ""
        func refuse(_ reason: ApiError.RedirectFailure.Reason) -> Result<Redirect?, ApiError> {
            .failure(.redirect(.init(reason: reason, statusCode: status, target: target)))
        }
        guard count <= options.maximumRedirects else {
            return refuse(.tooManyRedirects(limit: options.maximumRedirects))
        }
        guard let target, scheme == "http" || scheme == "https", target.host != nil else {
            return refuse(.unsupportedScheme(scheme))
        }
        if response.url?.scheme?.lowercased() == "https", scheme == "http" {
            return refuse(.insecureDowngrade)
        }
        var next = options.request ?? proposed
        let originalMethod = (next.httpMethod ?? "GET").uppercased()
        next.url = target
        var keepsBody = true
        switch status {
        case 307, 308:
            break
        case 303:
            next.httpMethod = originalMethod == "HEAD" ? "HEAD" : "GET"
            keepsBody = false
        default:
            // 301 and 302: a POST becomes a GET, as every browser and URLSession do.
            if originalMethod == "POST" {
                next.httpMethod = "GET"
                keepsBody = false
            }
        }
        if !keepsBody {
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        var leftOrigin = options.leftOrigin
        if let origin = options.originURL ?? options.request?.url, !sameOrigin(origin, target) {
            leftOrigin = true
        }
        if leftOrigin {
            for name in (next.allHTTPHeaderFields ?? [:]).keys
            where options.strippedHeaderNames.contains(name.lowercased()) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return .success(Redirect(request: next, keepsBody: keepsBody, count: count, leftOrigin: leftOrigin))
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

/// How one task is driven: its timeouts, limits, redirect rules and body.
struct TaskOptions: Sendable {
    /// Seconds without progress before the task times out.
    var idleTimeout: TimeInterval
    /// The uptime (nanoseconds) by which the task must end, or `.max`.
    var deadline: UInt64 = .max
    var maximumResponseSize: Int64 = .max
    var maximumRedirects: Int = 5
    /// Hops followed so far in this call, and whether one left the original origin.
    var redirectCount = 0
    var leftOrigin = false
    var strippedHeaderNames: Set<String> = Headers.secretNames
    /// The request this task sends, the base of the next hop's request.
    var request: URLRequest?
    /// The URL the call started with; leaving its origin strips secrets.
    var originURL: URL?
    /// The temporary file the body is uploaded from, if any.
    var temporaryBodyFile: URL?
    var progress: (@Sendable (TransferProgress) -> Void)?
}
