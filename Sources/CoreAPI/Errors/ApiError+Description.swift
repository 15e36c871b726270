public import Foundation

extension ApiError: CustomStringConvertible {
    /// A one-line description for logs. It never contains secret header values or body bytes, nor the
    /// text of a transport failure's or an unknown error's cause (which may quote a URL with its
    /// query): an unknown error shows its type only.
    public var description: String {
        switch self {
        case .invalidRequest(let reason):
            return "Invalid request: \(reason)"
        case .transport(let failure):
            let code = failure.code.map { " (URLError \($0))" } ?? ""
            guard let endpoint = failure.endpoint else {
                return "Transport failure: \(failure.kind)\(code)"
            }
            switch failure.kind {
            case .cannotConnect: return "Transport failure: cannot connect to \(endpoint)\(code)"
            case .dns: return "Transport failure: cannot resolve the host of \(endpoint)\(code)"
            case .tls: return "Transport failure: TLS failed with \(endpoint)\(code)"
            default: return "Transport failure: \(failure.kind) with \(endpoint)\(code)"
            }
        case .timeout:
            return "The request timed out"
        case .cancelled:
            return "The request was cancelled"
        case .unauthorized(let failure):
            return "Unauthorized: \(failure)"
        case .unacceptableStatus(let failure):
            return "Unacceptable status: \(failure)"
        case .unacceptableContentType(let failure):
            return "Unacceptable content type: \(failure)"
        case .mapping(let failure):
            return "Mapping failed: \(failure)"
        case .redirect(let failure):
            return "Redirect refused: \(failure)"
        case .responseTooLarge(let limit):
            return "The response was larger than \(limit) bytes"
        case .unknown(let failure):
            return "Unknown error: \(failure.typeName)"
        case .streamBufferFull(let limit):
            return "The stream's reader fell more than \(limit) bytes behind"
        }
    }
}

extension ApiError: CustomDebugStringConvertible {
    /// The same as ``description``.
    public var debugDescription: String { description }
}

extension ApiError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension ApiError.InvalidRequestReason: CustomStringConvertible {
    /// A description that names what is wrong without echoing header values.
    public var description: String {
        switch self {
        case .unknownHostKey(let key): "no host for key \(key.debugDescription)"
        case .unknownEnvironment(let name): "no environment named \(name.debugDescription)"
        case .invalidURL(let text): "invalid URL: \(text)"
        case .invalidHeader(let name): "invalid header field \(name.debugDescription)"
        case .invalidMethod(let token): "invalid method token \(token.debugDescription)"
        case .encoding(let text): "parameters could not be encoded: \(text)"
        case .unreadableFile(let path): "the file \(path.debugDescription) cannot be read"
        case .destinationExists(let path): "the file \(path.debugDescription) exists and may not be replaced"
        case .unwritableFile(let path): "the file \(path.debugDescription) cannot be written"
        case .sessionInvalidated: "the session was invalidated"
        case .requirementSentAsParameter(let property):
            "the stored property \(property.debugDescription) supplies the method's \(property) and would also be "
                + "sent as a parameter; mark it @Excluded or make it a computed property"
        case .unusedSetting(let property, let write):
            "the method declares \(property.debugDescription), which no call reads; write \(write)"
        case .bodyLengthMismatch(let declared, let produced):
            "the streamed body produced \(produced) bytes, not the \(declared) bytes declared"
        case .bodyStreamFailed(let failure): "the streamed body failed: \(failure.typeName)"
        }
    }
}

extension ApiError.StatusFailure: CustomStringConvertible {
    /// The configured ``message`` when there is one, then the status with its reason phrase, the URL
    /// path, the body size and the type of the ``serviceError``; secret header values are never included.
    public var description: String {
        let path = url.map { " for \($0.path)" } ?? ""
        let service = serviceError.map { ", the service's \(type(of: $0))" } ?? ""
        let facts = "HTTP \(status)\(path), \(body.count) body bytes\(service)"
        return message.map { "\($0) (\(facts))" } ?? facts
    }
}

extension ApiError.ContentTypeFailure: CustomStringConvertible {
    /// The media type received, the ones accepted, the status and the body size.
    public var description: String {
        let received = contentType.map { "\($0.debugDescription)" } ?? "none"
        return
            "\(received), expected \(acceptable.joined(separator: " or ")) (HTTP \(statusCode), \(body.count) body bytes)"
    }
}

extension ApiError.MappingFailure: CustomStringConvertible {
    /// The expected type, the status code and the cause.
    public var description: String {
        let status = statusCode.map { " (HTTP \($0))" } ?? ""
        let reason = cause.map { ": \($0)" } ?? ""
        return "could not make \(typeName)\(status)\(reason)"
    }
}

extension ApiError.RedirectFailure: CustomStringConvertible {
    /// The reason, the status and the target as written, with its port but never its query, fragment
    /// or credentials: `http://a.example:8080/x`, `data:text/plain,hello`.
    public var description: String {
        // `target` is stripped on creation, and again here in case it was set afterwards.
        let target = self.target.map { " to \(ApiError.StatusFailure.withoutQuery($0).absoluteString)" } ?? ""
        let reason =
            switch self.reason {
            case .tooManyRedirects(let limit): "more than \(limit) redirects"
            case .unsupportedScheme(let scheme): "unsupported scheme \(scheme.debugDescription)"
            case .insecureDowngrade: "https to http"
            }
        return "\(reason) (HTTP \(statusCode))\(target)"
    }
}
