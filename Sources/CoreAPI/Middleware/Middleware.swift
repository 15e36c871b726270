public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// One step of the ordered async chain every request of an ``ApiSession`` goes through.
///
/// A middleware receives the request about to be sent and `next`, which sends it through the rest of
/// the chain (and finally the network). It may change the request before calling `next`, return a
/// response without calling `next` at all (mocking), call `next` several times (retry, token refresh),
/// or look at what comes back (logging, metrics). Headers and tokens a middleware adds are read when the
/// request is sent — on every attempt — not when the method value is built.
///
/// The chain is the session's ``ApiSession/middlewares`` in order, then the method's own
/// ``ApiMethod/middlewares``; the first one is the outermost. Status validation and parsing (the response
/// type's ``ApiResponse/process(response:data:error:)``) run after the whole chain, so middlewares see
/// every status code as a ``RawResponse``. Transport failures reach them as thrown ``ApiError`` values;
/// an error a middleware throws itself that is not an ``ApiError`` ends the call unchanged.
///
/// Header fields left on the request are validated before it is sent. Validate values you compute
/// yourself too (``Headers/validate()``): on Linux, `URLRequest.setValue(_:forHTTPHeaderField:)`
/// silently drops a value that contains CR, LF or NUL, so such a field would otherwise just be missing.
///
/// ```swift
/// struct RequestID: Middleware {
///     func intercept(
///         _ request: URLRequest,
///         context: MiddlewareContext,
///         next: @Sendable (URLRequest) async throws -> RawResponse
///     ) async throws -> RawResponse {
///         var request = request
///         request.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
///         return try await next(request)
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// Handles one request.
    /// - Parameters:
    ///   - request: The request as the previous steps left it.
    ///   - context: The method being performed, the attempt number and the session.
    ///   - next: Sends a request through the rest of the chain; may be called more than once.
    /// - Returns: The raw response for the previous step.
    /// - Throws: ``ApiError`` for failures the rest of the chain reported, or an error of its own.
    func intercept(
        _ request: URLRequest,
        context: MiddlewareContext,
        next: @Sendable (URLRequest) async throws -> RawResponse
    ) async throws -> RawResponse
}

/// An HTTP response and its body, before status validation and parsing.
public struct RawResponse: Sendable {
    /// The response.
    public var response: HTTPURLResponse
    /// The body, decoded from any content coding.
    public var data: Data

    /// Creates a raw response.
    public init(response: HTTPURLResponse, data: Data) {
        self.response = response
        self.data = data
    }

    /// A response built from parts, for middlewares that answer without the network.
    /// - Parameters:
    ///   - url: The URL the response is for.
    ///   - statusCode: The status code.
    ///   - headers: The header fields.
    ///   - data: The body.
    public init(url: URL, statusCode: Int, headers: Headers = Headers(), data: Data = Data()) {
        var fields: [String: String] = [:]
        for field in headers {
            fields[field.name] = fields[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        guard
            let response = HTTPURLResponse(
                url: url,
                statusCode: statusCode,
                httpVersion: "HTTP/1.1",
                headerFields: fields
            )
        else {
            preconditionFailure("HTTPURLResponse rejected status code \(statusCode)")
        }
        self.response = response
        self.data = data
    }

    /// The status code.
    public var statusCode: Int { response.statusCode }

    /// The response's header fields.
    public var headers: Headers { Headers(httpURLResponse: response) }
}

/// What a middleware knows about the call it is part of.
public struct MiddlewareContext: Sendable {
    /// The method being performed.
    public let method: any ApiMethod
    /// 1 for the first time this request passes a middleware; one more for each time a middleware
    /// before it sends it again.
    public internal(set) var attempt: Int
    /// The session performing the method.
    public let session: ApiSession

    /// The method's type name, for logs and metrics: `GetUser`.
    public var methodName: String { String(describing: type(of: method)) }
}

/// Runs a request through middlewares and then `terminal`.
struct MiddlewareChain: Sendable {
    let middlewares: [any Middleware]
    let terminal: @Sendable (URLRequest) async throws -> RawResponse

    func run(_ request: URLRequest, context: MiddlewareContext) async throws -> RawResponse {
        try await run(request, context: context, from: 0)
    }

    private func run(_ request: URLRequest, context: MiddlewareContext, from index: Int) async throws -> RawResponse {
        guard index < middlewares.count else {
            return try await terminal(request)
        }
        let calls = LockedValue(0)
        return try await middlewares[index].intercept(request, context: context) { request in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            var context = context
            context.attempt += call - 1
            return try await run(request, context: context, from: index + 1)
        }
    }
}
