#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    import Foundation
#endif

/// What makes two calls identical for ``CallOptions/sharesIdenticalCalls``: the request the transport is
/// about to send, taken after the middleware chain.
///
/// Two calls are identical when they perform the same method type with the same ``CallOptions/callKey``
/// and the same limits, and their requests are the same on the wire: the same HTTP method, the same final
/// URL (host resolved when the call was made), the same header fields — the session's, the method's and
/// every field a middleware set, compared by lower-cased name and exact value — and the same body bytes.
/// The request is kept only as a SHA-256 digest of those parts, so a key seen in a debugger or a log
/// never shows a secret header or body.
///
/// Only `GET` and `HEAD` requests share, unless the method gives a ``CallOptions/callKey``: a key is the
/// method's word that one answer serves every identical request of that key, whatever its HTTP method.
/// A body sent from a file or a stream is never shared, since its bytes are not known before it is sent.
struct WireIdentity: Hashable, Sendable {
    /// The method type.
    let methodType: ObjectIdentifier
    /// The method's ``CallOptions/callKey``.
    let callKey: CallKey?
    /// The largest response body accepted, in bytes.
    let maximumResponseSize: Int64
    /// The idle timeout and the deadline, in seconds.
    let timeouts: [TimeInterval]
    /// SHA-256 of the method, URL, header block and body, as hexadecimal digits.
    let digest: String

    /// The identity of `request` sent for `method`, or `nil` when it may not share: not `GET` or `HEAD`
    /// and no ``CallOptions/callKey``, or a body in a file or a stream.
    /// - Parameters:
    ///   - request: The request as the middlewares left it.
    ///   - method: The method performed.
    ///   - settings: The call's settings.
    ///   - options: The call's limits.
    init?<M: ApiMethod>(of request: ApiRequest, method: M, settings: CallOptions, options: TransportOptions) {
        let verb = request.method.rawValue
        let callKey = settings.callKey
        guard verb == HTTPMethod.get.rawValue || verb == HTTPMethod.head.rawValue || callKey != nil,
            request.body.file == nil, request.body.stream == nil, request.pendingBodyFile == nil
        else { return nil }
        let deadline = settings.deadlineSeconds ?? 0
        self.init(
            methodType: ObjectIdentifier(M.self),
            callKey: callKey,
            maximumResponseSize: options.maximumResponseSize,
            timeouts: [options.idleTimeoutSeconds, deadline],
            digest: Self.digest(
                method: verb,
                url: request.url.absoluteString,
                headers: request.headers,
                body: request.body.data
            )
        )
    }

    /// An identity made of its parts.
    init(
        methodType: ObjectIdentifier,
        callKey: CallKey?,
        maximumResponseSize: Int64,
        timeouts: [TimeInterval],
        digest: String
    ) {
        self.methodType = methodType
        self.callKey = callKey
        self.maximumResponseSize = maximumResponseSize
        self.timeouts = timeouts
        self.digest = digest
    }

    /// SHA-256 of the parts of a request, each preceded by its length so no two requests run together
    /// into the same bytes; header fields in order of lower-cased name, then value, since the order of
    /// different names is no part of the request.
    static func digest(method: String, url: String, headers: Headers, body: Data?) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + (body?.count ?? 0))
        func append(_ part: some Collection<UInt8>) {
            let count = UInt64(part.count)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: count >> UInt64(shift)))
            }
            bytes.append(contentsOf: part)
        }
        append(method.utf8)
        append(url.utf8)
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(headers.count)
        for field in headers {
            fields.append((field.name.lowercased(), field.value))
        }
        fields.sort { (left: (name: String, value: String), right: (name: String, value: String)) -> Bool in
            left.name == right.name ? left.value < right.value : left.name < right.name
        }
        append(String(fields.count).utf8)
        for field in fields {
            append(field.name.utf8)
            append(field.value.utf8)
        }
        if let body {
            bytes.append(1)  // a body, even an empty one, is not the same request as none
            append(body)
        } else {
            bytes.append(0)
        }
        return SHA256.hex(of: bytes)
    }
}
