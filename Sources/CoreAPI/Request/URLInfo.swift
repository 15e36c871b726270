public import Foundation

/// Where a request goes: a complete URL, or a host plus a path (and optional query items).
///
/// With ``components(host:path:queryItems:)`` the host comes from a ``HostProvider`` and may carry a
/// base path, which is kept: `https://h/api` with `/v1/x` gives `https://h/api/v1/x`. A host without a
/// scheme is rejected: `api.example.com` may be served over `https` or plain `http`, so the host says
/// which. The path is split at `/` and every segment is percent-encoded, so text from callers can never
/// change the host, the query or the fragment: `?`, `#` and `%` are encoded, empty segments
/// (`//evil.com`) are dropped, and `.` or `..` segments are rejected. A path that ends in a query
/// (`/users?page=2`) is rejected too: its values belong in the method's parameters or in `queryItems`.
public enum URLInfo: Sendable, Hashable {
    /// A complete `http` or `https` URL without credentials, used as it is.
    case url(URL)
    /// A host (scheme, host, port and optional base path), a path below it, and query items.
    case components(host: String, path: String, queryItems: [URLQueryItem] = [])

    /// Builds the URL.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/invalidURL(_:)`` when
    ///   the scheme is missing or not `http`/`https`, the host is missing or carries a query or fragment,
    ///   or the path has a `.` or `..` segment or ends in a query.
    public func makeURL() throws -> URL {
        switch self {
        case .url(let url):
            // The URL's own parts, as it is sent (a relative URL's through its base): reading them into
            // `URLComponents` would parse the URL again, a costly step on Linux.
            try Self.checkSchemeAndHost(
                user: url.user,
                password: url.password,
                scheme: url.scheme,
                host: url.host,
                text: "a URL with scheme \(url.scheme ?? "none")"
            )
            return url
        case .components(let host, let path, let queryItems):
            var text = try Self.base(of: host)
            text += try Self.encodedPath(path)
            if !queryItems.isEmpty {
                text += "?" + QueryString.encode(queryItems)
            }
            guard let url = URL(string: text) else {
                throw ApiError.invalidRequest(.invalidURL("could not build a URL from \(host.debugDescription)"))
            }
            return url
        }
    }

    /// Hosts already checked, each with its URL text up to the base path (no trailing `/`). Hosts come
    /// from a few configured environments, so parsing each once saves a `URLComponents` round trip on
    /// every request; the table is emptied should it ever hold more than 256.
    private static let checkedHosts = LockedValue(CheckedHosts())

    /// The checked hosts, and the one looked up last: a session's calls mostly go to one host, and the
    /// same host text compares equal without hashing it.
    private struct CheckedHosts {
        var last: (host: String, base: String)?
        var table: [String: String] = [:]

        /// The base of `host` when it was checked, remembered as the last one looked up.
        mutating func base(of host: String) -> String? {
            if let last, last.host == host { return last.base }
            guard let base = table[host] else { return nil }
            last = (host, base)
            return base
        }
    }

    /// The checked start of every URL on `host`: scheme, authority and base path.
    private static func base(of host: String) throws -> String {
        if let known = checkedHosts.withLock({ $0.base(of: host) }) {
            return known
        }
        guard host.contains("://") else {
            throw ApiError.invalidRequest(
                .invalidURL(
                    "host \(host.debugDescription) has no scheme; write \(("https://" + host).debugDescription)"
                        + " (or http:// for a plain-HTTP server)"
                )
            )
        }
        guard var components = URLComponents(string: host) else {
            throw ApiError.invalidRequest(.invalidURL("host \(host.debugDescription) is not a valid URL"))
        }
        try Self.checkSchemeAndHost(
            user: components.user,
            password: components.password,
            scheme: components.scheme,
            host: components.host,
            text: host.debugDescription
        )
        guard components.percentEncodedQuery == nil, components.percentEncodedFragment == nil else {
            throw ApiError.invalidRequest(.invalidURL("a host must not carry a query or a fragment"))
        }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = basePath
        guard let base = components.string else {
            throw ApiError.invalidRequest(.invalidURL("could not build a URL from \(host.debugDescription)"))
        }
        checkedHosts.withLock { hosts in
            if hosts.table.count >= 256 { hosts.table.removeAll() }
            hosts.table[host] = base
        }
        return base
    }

    /// `path` as percent-encoded segments, each preceded by `/`; a trailing `/` is kept.
    ///
    /// One pass over the bytes; a path that is already in that form (the usual `/users/42`) is
    /// returned as it is, without splitting it into strings.
    static func encodedPath(_ path: String) throws -> String {
        var text = path
        return try text.withUTF8 { bytes in
            if isEncodedPath(bytes) {
                return path
            }
            try checkNoQuery(in: bytes)
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
                let segment = UnsafeBufferPointer(rebasing: bytes[start..<index])
                start = index + 1
                if segment.isEmpty {
                    continue  // `//` or a leading or trailing `/`: nothing to encode
                }
                if isDotSegment(segment) {
                    throw ApiError.invalidRequest(.invalidURL("the path must not contain \".\" or \"..\" segments"))
                }
                output.append(UInt8(ascii: "/"))
                for byte in segment {
                    if PercentEncoding.isPathSegmentCharacter(byte) {
                        output.append(byte)
                    } else {
                        PercentEncoding.appendEscaped(byte, to: &output)
                    }
                }
            }
            if bytes.last == UInt8(ascii: "/") {
                output.append(UInt8(ascii: "/"))  // kept, and the whole path when it is only slashes
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Whether `bytes` is a path ``encodedPath(_:)`` returns unchanged: a leading `/`, no empty, `.` or
    /// `..` segment before the end, and only bytes a segment may hold unencoded.
    private static func isEncodedPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.first == UInt8(ascii: "/") else { return false }
        var segmentStart = 1
        for index in 1...bytes.count {
            guard index < bytes.count, bytes[index] != UInt8(ascii: "/") else {
                let segment = UnsafeBufferPointer(rebasing: bytes[segmentStart..<index])
                if segment.isEmpty ? index < bytes.count : isDotSegment(segment) {
                    return false
                }
                segmentStart = index + 1
                continue
            }
            if !PercentEncoding.isPathSegmentCharacter(bytes[index]) {
                return false
            }
        }
        return true
    }

    /// Throws when `path` ends in what is plainly a query (`/users?page=2`: a `?`, then `name=` and no
    /// `/`), which would be sent percent-encoded as part of the path. Any other `?` is text of the path,
    /// encoded as such. The error names the query's parameter names, not their values.
    private static func checkNoQuery(in bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return }
        let query = bytes[(mark + 1)...]
        guard query.contains(UInt8(ascii: "=")), !query.contains(UInt8(ascii: "/")) else { return }
        let names = String(decoding: query, as: UTF8.self).split(separator: "&").map { $0.prefix { $0 != "=" } }
        let path = String(decoding: bytes[..<mark], as: UTF8.self)
        throw ApiError.invalidRequest(
            .invalidURL(
                "the path \(path.debugDescription) is followed by a query (\(names.joined(separator: ", "))),"
                    + " which would be sent as part of the path; make its values properties of the method, or"
                    + " return URLInfo.components(host:path:queryItems:) from urlInfo(from:)"
            )
        )
    }

    /// Whether `segment` is `.` or `..`.
    private static func isDotSegment(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        segment.count <= 2 && segment.allSatisfy { $0 == UInt8(ascii: ".") }
    }

    /// Throws unless the parts are those of an `http` or `https` URL with a host and no credentials;
    /// `text` names the URL in the error.
    private static func checkSchemeAndHost(
        user: String?,
        password: String?,
        scheme: String?,
        host: String?,
        text: @autoclosure () -> String
    ) throws {
        guard user == nil, password == nil else {
            throw ApiError.invalidRequest(.invalidURL("a URL must not carry credentials"))
        }
        guard let scheme = scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ApiError.invalidRequest(.invalidURL("\(text()) is not an http or https URL"))
        }
        guard let host, !host.isEmpty else {
            throw ApiError.invalidRequest(.invalidURL("\(text()) has no host"))
        }
    }
}
