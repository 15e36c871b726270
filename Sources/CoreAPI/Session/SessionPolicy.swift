import Foundation

/// The redirect rules and the secrets of an ``ApiSession``: safe defaults, the same on every platform.
/// The limits every call has — timeout, deadline, size — are the session's ``ApiSession/defaults``.
///
/// - Redirects: at most ``maximumRedirects`` hops (5; 0 means redirects are not followed and the `3xx`
///   response is the answer); only `http` and `https` targets; never from `https` to `http`. When a hop
///   leaves the original origin (scheme, host and port), `Authorization`, `Proxy-Authorization`,
///   `Cookie` and the other header fields of ``secrets`` are removed and stay removed for the rest of the chain. A
///   `303` (and a `301` or `302` answering a `POST`) becomes a `GET` without body; a `307` or `308`
///   sends the same method and the same body again, from memory or from the body file. The session follows
///   each hop itself above the transport, so the rules are the same for every engine.
/// - Secrets: the header fields and parameters of ``secrets`` leave no trace in logs, cURL output or the
///   HTTP cache, and never cross to another origin.
public struct SessionPolicy: Sendable, Hashable {
    /// The most redirect hops followed; `0` means none are followed.
    public var maximumRedirects: Int
    /// Which header fields and parameters are secret, for the whole session: redirects strip the
    /// header fields when they leave the origin, ``LoggingMiddleware`` and ``ApiRequest/curlCommand(redaction:maximumBodyLength:)`` hide them,
    /// and ``HTTPCacheMiddleware`` keeps them out of its store and keys.
    public var secrets: Secrets
    /// Header names treated like `Authorization` (``Secrets/configuredHeaderNames`` of ``secrets``):
    /// removed when a redirect leaves the original origin, hidden by ``LoggingMiddleware`` and
    /// ``ApiRequest/curlCommand(redaction:maximumBodyLength:)`` of the session, never stored by ``HTTPCacheMiddleware``. Stored lower-cased
    /// whichever way they are set, so `policy.secretHeaderNames.insert("X-Api-Key")` works as well as
    /// the initialiser.
    public var secretHeaderNames: Set<String> {
        get { secrets.configuredHeaderNames }
        set {
            secrets = Secrets(
                headerNames: newValue,
                parameterKeys: secrets.parameterKeys,
                includesDefaultParameterKeys: false
            )
        }
    }

    /// Creates a policy; every parameter has the safe default.
    /// - Parameters:
    ///   - maximumRedirects: The most hops followed; `0` returns every `3xx` as the answer.
    ///   - secretHeaderNames: Header names to treat like `Authorization`, in any case.
    ///   - secrets: Further secret header names and parameter keys; ``Secrets/defaultParameterKeys``
    ///     by default.
    public init(
        maximumRedirects: Int = 5,
        secretHeaderNames: Set<String> = [],
        secrets: Secrets = Secrets()
    ) {
        self.maximumRedirects = max(0, maximumRedirects)
        self.secrets = secrets.addingHeaderNames(secretHeaderNames)
    }
}
