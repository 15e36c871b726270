/// Which header fields and parameters hold secrets: the one list that redirects, logging, cURL
/// renderings and the HTTP cache all read.
///
/// - Header fields: always ``builtInHeaderNames`` (`Authorization`, `Proxy-Authorization`, `Cookie`,
///   `Set-Cookie`), plus the names configured, ignoring case. A redirect that leaves the original
///   origin removes them, logs print them as `<redacted>`, and ``HTTPCacheMiddleware`` stores neither
///   them nor their values.
/// - Parameters: the keys in ``parameterKeys`` — ``defaultParameterKeys`` unless left out, plus the
///   keys configured — in URL queries, form and JSON bodies (see ``isSecretParameter(_:)`` for how
///   keys match). Logs hide their values, and cache keys leave them out.
///
/// A session's ``SessionPolicy/secrets`` is read by every part of the session: configured once there,
/// a name is secret everywhere. ``Secrets/Redaction`` and ``HTTPCacheMiddleware`` add theirs to it.
///
/// ```swift
/// let secrets = Secrets(headerNames: ["X-Api-Key"], parameterKeys: ["pin"])
/// let policy = SessionPolicy(secrets: secrets)
/// ```
public struct Secrets: Sendable, Hashable {
    /// The header names that are always secret, lower-cased: `authorization`, `proxy-authorization`,
    /// `cookie` and `set-cookie`.
    public static let builtInHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie",
    ]

    /// The parameter keys that are secrets by default: `password`, `passwd`, `pwd`, `secret`,
    /// `client_secret`, `token`, `access_token`, `refresh_token`, `id_token`, `auth_token`,
    /// `session_token`, `api_key`, `private_key` and `code_verifier`.
    ///
    /// OAuth's `code` is not among them because many APIs use `code` for error and country codes; add
    /// it when you log an authorization-code exchange.
    public static let defaultParameterKeys: Set<String> = [
        "password", "passwd", "pwd", "secret", "client_secret", "token", "access_token", "refresh_token",
        "id_token", "auth_token", "session_token", "api_key", "private_key", "code_verifier",
    ]

    /// The configured header names, lower-cased, without the built-in ones added.
    public private(set) var configuredHeaderNames: Set<String>
    /// Every secret header name, lower-cased: ``builtInHeaderNames`` and ``configuredHeaderNames``.
    public private(set) var headerNames: Set<String>
    /// The secret parameter keys, lower-cased.
    public private(set) var parameterKeys: Set<String>
    /// ``parameterKeys`` as ``normalized(_:)`` compares them.
    private var normalizedParameterKeys: Set<String>

    /// Creates a set of secrets.
    /// - Parameters:
    ///   - headerNames: Header names secret besides ``builtInHeaderNames``, in any case.
    ///   - parameterKeys: Parameter keys secret besides the defaults, in any case.
    ///   - includesDefaultParameterKeys: Whether ``defaultParameterKeys`` are secret too; pass `false`
    ///     for `parameterKeys` alone.
    public init(
        headerNames: Set<String> = [],
        parameterKeys: Set<String> = [],
        includesDefaultParameterKeys: Bool = true
    ) {
        configuredHeaderNames = Set(headerNames.map { $0.lowercased() })
        self.headerNames = Self.builtInHeaderNames.union(configuredHeaderNames)
        let keys = Set(parameterKeys.map { $0.lowercased() })
        self.parameterKeys = includesDefaultParameterKeys ? keys.union(Self.defaultParameterKeys) : keys
        normalizedParameterKeys = Set(self.parameterKeys.map(Self.normalized))
    }

    /// These secrets and `other`'s: every header name and parameter key secret in either.
    public func union(_ other: Secrets) -> Secrets {
        guard other != self else { return self }
        var union = self
        union.configuredHeaderNames.formUnion(other.configuredHeaderNames)
        union.headerNames.formUnion(other.headerNames)
        union.parameterKeys.formUnion(other.parameterKeys)
        union.normalizedParameterKeys.formUnion(other.normalizedParameterKeys)
        return union
    }

    /// These secrets with the header fields called `names` (in any case) secret as well.
    public func addingHeaderNames(_ names: Set<String>) -> Secrets {
        let lowered = Set(names.map { $0.lowercased() })
        guard !lowered.isSubset(of: configuredHeaderNames) else { return self }
        var secrets = self
        secrets.configuredHeaderNames.formUnion(lowered)
        secrets.headerNames.formUnion(lowered)
        return secrets
    }

    /// Whether header fields called `name` hold secrets; case is ignored.
    public func isSecretHeader(_ name: String) -> Bool {
        headerNames.contains(name.lowercased())
    }

    /// Whether parameters called `key` hold secrets.
    ///
    /// Keys match whole, ignoring ASCII case, `_` and `-` — so `accessToken`, `access-token` and
    /// `ACCESS_TOKEN` all match `access_token`, while `token_type` does not match `token`. A bracketed
    /// form or query key such as `user[password]` or `user[password][]` matches by its last
    /// non-numeric component as well.
    public func isSecretParameter(_ key: String) -> Bool {
        if normalizedParameterKeys.contains(Self.normalized(key)) { return true }
        guard key.contains("[") else { return false }
        let components = key.split { $0 == "[" || $0 == "]" }
        guard let last = components.last(where: { !$0.allSatisfy(\.isNumber) }) else { return false }
        return normalizedParameterKeys.contains(Self.normalized(last))
    }

    /// `key` lower-cased without `_` and `-`.
    static func normalized(_ key: some StringProtocol) -> String {
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else {
            return String(key.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count)
        for byte in key.utf8 where byte != UInt8(ascii: "_") && byte != UInt8(ascii: "-") {
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
