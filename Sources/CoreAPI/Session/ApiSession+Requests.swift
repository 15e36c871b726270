#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Building a method's request: URL, method, headers and timeout, then its parameters or body.
extension ApiSession {
    /// The request `method` describes, built and validated but not sent, with any body in memory.
    ///
    /// ``perform(_:progress:)`` sends the same request, except that a large multipart body is uploaded
    /// from a temporary file instead (see ``ParametersEncoding/encodeRequest(_:in:)``).
    /// - Throws: ``ApiError/invalidRequest(_:)`` for an unknown host key, a bad URL, method token or
    ///   header, or parameters that cannot be encoded.
    public func makeURLRequest<M: ApiMethod>(for method: M) throws -> URLRequest {
        try method.parametersEncoding.encode(method, in: try makeRequestWithoutParameters(for: method))
    }

    /// The request as it is sent: body in memory, in a file, or (a large multipart body) to be written
    /// to a temporary file for each attempt.
    func makeEncodedRequest<M: ApiMethod>(for method: M) throws -> EncodedRequest {
        let request = try makeRequestWithoutParameters(for: method)
        let encoding = method.parametersEncoding
        if let body = method.body {
            var query = encoding as? QueryParametersEncoder ?? QueryParametersEncoder()
            query.destination = .queryString
            return try body.encoded(in: query.encode(method, in: request))
        }
        // A metatype comparison first: a cast of the existential costs hundreds of instructions.
        if type(of: encoding) == MultipartFormDataEncoder.self, let multipart = encoding as? MultipartFormDataEncoder {
            return try multipart.encodeDeferringBody(method, in: request)
        }
        return try encoding.encodeRequest(method, in: request)
    }

    private func makeRequestWithoutParameters<M: ApiMethod>(for method: M) throws -> URLRequest {
        let httpMethod = method.httpMethod
        try httpMethod.validate()
        let url = try method.urlInfo(from: hostProvider).makeURL()
        let headers = self.headers.merging(method.headers)
        try headers.validate()
        var request = URLRequest(url: url)
        if httpMethod != .get {
            // `GET` is the default; setting it costs a case-insensitive match against the known methods.
            request.httpMethod = httpMethod.rawValue
        }
        // Set while the request is not shared yet: a transport that sets it later copies the request.
        request.timeoutInterval = URLSessionTransport.backstopTimeout(forIdleTimeout: idleTimeout(for: method))
        for field in headers {
            request.addValue(field.value, forHTTPHeaderField: field.name)
        }
        return request
    }

    /// The idle timeout of `method`: its own when positive, the session's otherwise.
    func idleTimeout<M: ApiMethod>(for method: M) -> TimeInterval {
        guard let timeout = method.timeout, timeout > 0 else { return defaultTimeout }
        return timeout
    }
}
