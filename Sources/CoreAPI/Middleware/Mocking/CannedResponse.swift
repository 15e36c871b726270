public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A canned reply: a status with headers and a body, or a failure, optionally after a delay.
///
/// ``MockMiddleware`` answers calls with it in the middleware chain; CoreAPITesting's `StubTransport`
/// and `StubServer` answer with it below the chain, in place of the network. The same reply comes to
/// the same result through each of them:
///
/// ```swift
/// let user = CannedResponse.json(#"{"id": 42, "name": "Ada"}"#)
/// let missing = CannedResponse.status(404)
/// let slow = CannedResponse.text("ok").delayed(by: .seconds(2))
/// let offline = CannedResponse.failure(.transport(.init(kind: .offline)))
/// let tooSlow = CannedResponse.failure(.timeout)
/// ```
///
/// A failure is an ``ApiError``, and arrives as the session reports that failure from URLSession: a
/// transport failure without a ``ApiError/TransportFailure/code`` gets the `URLError` code URLSession
/// reports for its kind (`.offline` is `-1009`, `notConnectedToInternet`), and one with a code gets the
/// kind of that code; ``ApiError/timeout`` and ``ApiError/cancelled`` stay as they are, and so does
/// every other error, which no `URLError` stands for. So compare a transport failure by its kind
/// (`failure.kind == .offline`), or with the code it gets.
public struct CannedResponse: Sendable {
    /// Where the body comes from.
    private enum Body: Sendable {
        case data(Data)
        case file(URL)
    }

    /// A response, or a failure instead.
    private enum Outcome: Sendable {
        case response(statusCode: Int, headers: Headers, body: Body)
        case failure(ApiError)
    }

    private let outcome: Outcome
    /// How long to wait before answering; none unless ``delayed(by:)`` sets it. Cancelling the call ends
    /// the wait.
    public private(set) var delay: Duration = .zero

    private init(_ outcome: Outcome) {
        self.outcome = outcome
    }

    /// A response with `data` as its body.
    /// - Parameters:
    ///   - data: The body.
    ///   - statusCode: The status code.
    ///   - headers: The header fields.
    public static func data(_ data: Data, statusCode: Int = 200, headers: Headers = Headers()) -> CannedResponse {
        CannedResponse(.response(statusCode: statusCode, headers: headers, body: .data(data)))
    }

    /// A JSON body, with `Content-Type: application/json` unless `headers` name another.
    /// - Parameters:
    ///   - text: The JSON text, sent as UTF-8.
    ///   - statusCode: The status code.
    ///   - headers: The header fields.
    public static func json(_ text: String, statusCode: Int = 200, headers: Headers = Headers()) -> CannedResponse {
        .data(Data(text.utf8), statusCode: statusCode, headers: typed("application/json", headers))
    }

    /// A JSON body encoding `value` with sorted keys, with `Content-Type: application/json` unless
    /// `headers` name another.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - statusCode: The status code.
    ///   - headers: The header fields.
    /// - Throws: The encoder's error.
    public static func json(
        encoding value: some Encodable,
        statusCode: Int = 200,
        headers: Headers = Headers()
    ) throws -> CannedResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return .data(try encoder.encode(value), statusCode: statusCode, headers: typed("application/json", headers))
    }

    /// A UTF-8 text body, with `Content-Type: text/plain; charset=utf-8` unless `headers` name another.
    /// - Parameters:
    ///   - text: The text.
    ///   - statusCode: The status code.
    ///   - headers: The header fields.
    public static func text(_ text: String, statusCode: Int = 200, headers: Headers = Headers()) -> CannedResponse {
        .data(Data(text.utf8), statusCode: statusCode, headers: typed("text/plain; charset=utf-8", headers))
    }

    /// A body read from a fixture file each time the reply is made, with the `Content-Type` of the file's
    /// extension unless `headers` name one. An unreadable file fails the call with
    /// ``ApiError/InvalidRequestReason/unreadableFile(path:)``.
    /// - Parameters:
    ///   - url: The file.
    ///   - statusCode: The status code.
    ///   - headers: The header fields.
    public static func file(_ url: URL, statusCode: Int = 200, headers: Headers = Headers()) -> CannedResponse {
        let headers = typed(Attachment.mimeType(forFilename: url.lastPathComponent), headers)
        return CannedResponse(.response(statusCode: statusCode, headers: headers, body: .file(url)))
    }

    /// A response with a status code and no body.
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: The header fields.
    public static func status(_ statusCode: Int, headers: Headers = Headers()) -> CannedResponse {
        .data(Data(), statusCode: statusCode, headers: headers)
    }

    /// A failure instead of a response, such as `.timeout` or `.transport(.init(kind: .offline))`; it
    /// arrives as the session reports it from URLSession (see ``CannedResponse``).
    /// - Parameter error: The failure.
    public static func failure(_ error: ApiError) -> CannedResponse {
        CannedResponse(.failure(error))
    }

    /// This reply, answered after `delay`.
    /// - Parameter delay: How long to wait before answering.
    public func delayed(by delay: Duration) -> CannedResponse {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// `headers`, with a `Content-Type` of `type` first unless they have one.
    private static func typed(_ type: String, _ headers: Headers) -> Headers {
        headers.contains("Content-Type") ? headers : Headers(["Content-Type": type]).merging(headers)
    }
}

extension CannedResponse {
    /// What a reply comes to when a stub delivers it.
    package struct Parts: Sendable {
        /// The status code.
        package var statusCode: Int
        /// The header fields.
        package var headers: Headers
        /// The body, a file's read when the reply was made.
        package var body: Data
    }

    /// The reply made now: its parts, with a file's body read now; or the error a network engine ends the
    /// exchange with for its failure — the `URLError` URLSession reports for it where there is one,
    /// otherwise the ``ApiError`` itself — which ``ApiError/init(_:)`` turns into the error the session
    /// reports. An unreadable file is ``ApiError/InvalidRequestReason/unreadableFile(path:)``.
    package func make() -> Result<Parts, any Error> {
        switch outcome {
        case .failure(let error):
            return .failure(Self.urlErrorCode(for: error).map { URLError($0) } ?? error)
        case .response(let statusCode, let headers, .data(let data)):
            return .success(Parts(statusCode: statusCode, headers: headers, body: data))
        case .response(let statusCode, let headers, .file(let url)):
            guard let data = try? Data(contentsOf: url) else {
                return .failure(ApiError.invalidRequest(.unreadableFile(path: url.path)))
            }
            return .success(Parts(statusCode: statusCode, headers: headers, body: data))
        }
    }

    /// The `URLError` code URLSession ends a task with for `error`, which ``ApiError/init(_:)`` maps back
    /// to an error equal to `error`'s category; `nil` for an error no `URLError` stands for.
    package static func urlErrorCode(for error: ApiError) -> URLError.Code? {
        switch error {
        case .timeout: return .timedOut
        case .cancelled: return .cancelled
        case .transport(let failure):
            if let code = failure.code { return URLError.Code(rawValue: code) }
            switch failure.kind {
            case .cannotConnect: return .cannotConnectToHost
            case .connectionLost: return .networkConnectionLost
            case .dns: return .cannotFindHost
            case .tls: return .secureConnectionFailed
            case .offline: return .notConnectedToInternet
            case .badResponse: return .badServerResponse
            case .other: return .unknown
            }
        default: return nil
        }
    }
}
