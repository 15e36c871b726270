import Foundation

/// Building a method's request: URL, method and headers, then its parameters or body.
extension ApiSession {
    /// The request `method` describes, built and validated but not sent, with any body in memory.
    ///
    /// ``perform(_:options:progress:)`` sends the same request before the middlewares change it, except that a
    /// large multipart body is uploaded from a temporary file instead (see
    /// ``MultipartFormDataEncoder/streamingThreshold``).
    /// - Throws: ``ApiError/invalidRequest(_:)`` for an unknown host key, a bad URL, method token or
    ///   header, or parameters that cannot be encoded.
    public func makeRequest<M: ApiMethod>(for method: M) throws -> ApiRequest {
        let request = try makeRequestWithoutParameters(for: method, facts: MethodFacts.of(method))
        if let body = method.body {
            var query = method.parametersEncoding as? QueryParametersEncoder ?? QueryParametersEncoder()
            query.destination = .queryString
            return try body.encoded(in: query.encode(method, in: request))
        }
        return try method.parametersEncoding.encode(method, in: request)
    }

    /// The request as it is sent: body in memory, in a file, or (a large multipart body) to be written
    /// to a temporary file for each attempt.
    func makeEncodedRequest<M: ApiMethod>(for method: M, facts: MethodFacts) throws -> ApiRequest {
        let request = try makeRequestWithoutParameters(for: method, facts: facts)
        try StoredRequirements.check(method, facts: facts)
        let encoding = method.parametersEncoding
        if let body = method.body {
            var query = encoding as? QueryParametersEncoder ?? QueryParametersEncoder()
            query.destination = .queryString
            return try body.encoded(in: query.encode(method, in: request))
        }
        // A metatype comparison first: it is far cheaper than a cast of the existential.
        if type(of: encoding) == MultipartFormDataEncoder.self, let multipart = encoding as? MultipartFormDataEncoder {
            return try multipart.encodeDeferringBody(method, in: request)
        }
        return try encoding.encode(method, in: request)
    }

    private func makeRequestWithoutParameters<M: ApiMethod>(for method: M, facts: MethodFacts) throws -> ApiRequest {
        if let unused = facts.unusedSetting {
            throw ApiError.invalidRequest(unused)
        }
        let httpMethod = method.httpMethod
        try httpMethod.validate()
        let url = try method.urlInfo(from: hostProvider).makeURL()
        let headers = self.headers.merging(method.headerFields)
        try headers.validate()
        return ApiRequest(method: httpMethod, url: url, headers: headers)
    }
}

extension ApiMethod {
    /// ``ApiMethod/headers`` as ``Headers``: a method whose headers are of another type never gets here,
    /// since its calls fail with ``ApiError/InvalidRequestReason/unusedSetting(property:write:)`` first.
    var headerFields: Headers {
        guard HeaderFields.self == Headers.self else { return Headers() }
        return unsafeBitCast(headers, to: Headers.self)
    }
}
