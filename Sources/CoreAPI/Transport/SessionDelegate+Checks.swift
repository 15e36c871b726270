import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the session delegate checks in a response head before reading its body, and how it names the
/// failures the engine reports.
extension SessionDelegate {
    /// The most body bytes kept of a redirect response (see ``isRedirect(_:)``); the rest is not read.
    /// The same as ``ApiError/StatusFailure/maximumBodySize``, all that a `3xx` no method accepts keeps.
    static let redirectBodyLimit = ApiError.StatusFailure.maximumBodySize

    /// The content codings the engine decodes, lower-cased. libcurl (FoundationNetworking) decodes
    /// `zstd` too; Apple's URLSession does not.
    #if canImport(FoundationNetworking)
        static let decodedContentCodings: Set<String> = ["identity", "gzip", "x-gzip", "deflate", "br", "zstd"]
    #else
        static let decodedContentCodings: Set<String> = ["identity", "gzip", "x-gzip", "deflate", "br"]
    #endif

    /// The most content codings one response may stack: libcurl refuses more (its `MAX_ENCODE_STACK`),
    /// and every layer multiplies the work of decoding.
    static let maximumContentCodings = 5

    /// Whether `response` is a redirect the session may follow: a status of ``Redirect/followedStatuses``
    /// with a `Location` field.
    static func isRedirect(_ response: HTTPURLResponse) -> Bool {
        Redirect.followedStatuses.contains(response.statusCode)
            && response.value(forHTTPHeaderField: "Location") != nil
    }

    /// The failure for a response head CoreAPI will not read a body after, or `nil` when it is fine:
    /// ``ApiError/TransportFailure/Kind/badResponse`` when its `Content-Length` fields disagree or are
    /// not numbers, or when its body has a content coding the engine does not decode.
    /// - Parameters:
    ///   - response: The response head.
    ///   - method: The method of the request it answers; asked for only when the body is encoded.
    static func headFailure(of response: HTTPURLResponse, method: @autoclosure () -> String?) -> ApiError? {
        if hasInvalidContentLength(response) || !hasDecodableBody(response, method: method()) {
            return .transport(.init(kind: .badResponse))
        }
        return nil
    }

    /// Whether the `Content-Length` of `response` is invalid: its values disagree or one is not a
    /// number (RFC 9110 §8.6, RFC 9112 §6.3: such a message is invalid, and a client must not guess
    /// where its body ends).
    ///
    /// FoundationNetworking joins repeated fields with `", "`: `Content-Length: 10` and
    /// `Content-Length: 5` arrive as `"10, 5"`, and libcurl then reads the last field alone (5 bytes of
    /// the 10 sent, ending the exchange as a success); one field `10, 5` arrives as it is and libcurl reads
    /// the first number. Values that agree (`"10, 10"`) are one length, which RFC 9110 lets a recipient
    /// accept.
    static func hasInvalidContentLength(_ response: HTTPURLResponse) -> Bool {
        guard let value = response.value(forHTTPHeaderField: "Content-Length") else { return false }
        if isDigits(value) {
            return false  // one length, the usual case: no list to split
        }
        let lengths = elements(of: value)
        guard lengths.allSatisfy(isDigits) else { return true }
        let numbers = Set(lengths.map { $0.drop { $0 == "0" } })
        return numbers.count > 1
    }

    /// The body length `response` declares in `Content-Length`, or `nil` when it declares none (or an
    /// invalid one, see ``hasInvalidContentLength(_:)``). A length too large for `Int64` is `Int64.max`:
    /// libcurl reads such a body to the end of the connection and FoundationNetworking reports its length
    /// as unknown, but it is larger than any size limit.
    static func declaredLength(of response: HTTPURLResponse) -> Int64? {
        guard let value = response.value(forHTTPHeaderField: "Content-Length") else { return nil }
        if isDigits(value) {
            return Int64(value) ?? .max
        }
        guard let length = elements(of: value).first, isDigits(length) else { return nil }
        return Int64(length) ?? .max
    }

    /// Whether the body of `response` can be decoded: every coding of its `Content-Encoding` is one of
    /// ``decodedContentCodings``, and there are at most ``maximumContentCodings``. A response that has no
    /// body (to `HEAD`, or `204` and `304`) has nothing to decode.
    ///
    /// An unknown coding would otherwise be passed through as it is by some engines (a silent wrong
    /// body), and fail only once body bytes arrive with libcurl.
    static func hasDecodableBody(_ response: HTTPURLResponse, method: @autoclosure () -> String?) -> Bool {
        guard let value = response.value(forHTTPHeaderField: "Content-Encoding") else { return true }
        if method()?.uppercased() == "HEAD" || response.statusCode == 204 || response.statusCode == 304 {
            return true
        }
        if !value.utf8.contains(UInt8(ascii: ",")), decodedContentCodings.contains(value.lowercased()) {
            return true  // one known coding, the usual case
        }
        let codings = elements(of: value).map { $0.lowercased() }
        return codings.count <= maximumContentCodings && codings.allSatisfy(decodedContentCodings.contains)
    }

    /// Whether `text` is one or more ASCII digits.
    static func isDigits(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The elements of a comma-separated field value without the blanks around them; empty elements,
    /// which RFC 9110 §5.6.1 tells recipients to ignore, are left out.
    static func elements(of value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// libcurl's messages, lower-cased, for a response it could not parse or decode. FoundationNetworking
    /// reports these faults as `URLError` `-1` (unknown) with libcurl's message as the description;
    /// a status line it cannot read comes as `-1002` (`unsupportedURL`), which for an `http` or `https`
    /// URL means nothing else.
    static let malformedResponseMessages = [
        "header without colon",  // a header line without ':'
        "nul byte in header",  // a NUL byte in the head
        "invalid content-length",  // a Content-Length that is not a number
        "weird server reply",  // libcurl's text for any other unreadable head
        "unsupported http version",  // "HTTP/1.1 abc"
        "http/0.9",  // a status line that is not HTTP at all
        "content encoding",  // an unknown coding, or more than libcurl stacks
        "unencoding",  // a body its coding cannot decode ("incorrect header check")
        "content or transfer-encoding",  // the same, for brotli and zstd
    ]

    /// The ``ApiError`` for the error a task ended with.
    ///
    /// The generic mapping of ``ApiError/init(_:)`` is refined with what only the transport knows:
    /// - a response that could not be parsed or decoded (see ``malformedResponseMessages``) is
    ///   ``ApiError/TransportFailure/Kind/badResponse``;
    /// - any other failure once the response head has arrived is
    ///   ``ApiError/TransportFailure/Kind/connectionLost``: the connection ended before the body did
    ///   (FoundationNetworking reports a body cut short as `-1`, "transfer closed with 900 bytes
    ///   remaining to read", and a TLS read that fails mid-body with libcurl's "SSL" message, though the
    ///   handshake and the certificate were accepted before the head arrived).
    ///
    /// The `URLError` code is kept in ``ApiError/TransportFailure/code``.
    /// - Parameters:
    ///   - error: The error the task ended with.
    ///   - afterHead: Whether the response head had arrived.
    ///   - url: The URL of the request.
    static func failure(for error: any Error, afterHead: Bool, url: URL?) -> ApiError {
        let mapped = ApiError(error)
        guard case .transport(let failure) = mapped, failure.kind == .other || failure.kind == .tls else {
            return mapped
        }
        let message = (error as NSError).localizedDescription.lowercased()
        // Compared as it is: FoundationNetworking has no protocol for `HTTP://`, and reports -1002 for it.
        let scheme = url?.scheme
        if failure.kind == .other,
            malformedResponseMessages.contains(where: message.contains)
                || (failure.code == URLError.unsupportedURL.rawValue && (scheme == "http" || scheme == "https"))
        {
            return .transport(.init(kind: .badResponse, code: failure.code))
        }
        if afterHead {
            return .transport(.init(kind: .connectionLost, code: failure.code))
        }
        return mapped
    }
}
