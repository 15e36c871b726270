import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which content codings the session delegate's engine decodes, and how it names the failures the
/// engine reports; the rules of a response itself are ``ResponseCollector``'s.
extension SessionDelegate {
    /// The content codings the engine decodes, lower-cased: the set it checks response heads with
    /// (see ``ResponseCollector``). libcurl (FoundationNetworking)
    /// decodes `zstd` too; Apple's URLSession does not.
    #if canImport(FoundationNetworking)
        static let decodedContentCodings: Set<String> = ["identity", "gzip", "x-gzip", "deflate", "br", "zstd"]
    #else
        static let decodedContentCodings: Set<String> = ["identity", "gzip", "x-gzip", "deflate", "br"]
    #endif

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
            return .transport(.init(kind: .badResponse, code: failure.code, cause: failure.cause))
        }
        if afterHead {
            return .transport(.init(kind: .connectionLost, code: failure.code, cause: failure.cause))
        }
        return mapped
    }
}
