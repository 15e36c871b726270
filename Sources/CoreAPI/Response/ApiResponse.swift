public import Foundation

/// A typed response, built from the HTTP exchange in two layers.
///
/// - ``process(response:data:error:)`` is the policy: it sees every exchange — successes, error
///   statuses with their bodies, and transport errors — and decides between a value and an error. The
///   default validates the status against the method's acceptable codes, then parses.
/// - ``makeResponse(response:data:)`` is the parser; ``decodeResponse(response:data:)`` is its throwing
///   form, which keeps the reason a parse failed.
///
/// A service module's models adopt a mixin such as `JSONApiResponse` or `TextApiResponse`. The module
/// reads its common error body once, in its method family's ``ApiMethod/statusError(for:)``, which runs
/// for every response type; a custom `process` is for how one type is parsed (an envelope, a second
/// error shape), and a method whose response type does not adopt it — `String`, `Data`, an empty
/// response — never runs it.
public protocol ApiResponse: Sendable {
    /// Decides the outcome of an exchange.
    /// - Parameters:
    ///   - response: The response head, or `nil` when none arrived.
    ///   - data: The body, or `nil` when none arrived.
    ///   - error: The transport error, if any.
    static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error>

    /// Parses a response, or returns `nil` when it cannot.
    static func makeResponse(response: ResponseHead, data: Data) -> Self?

    /// Parses a response, throwing the reason when it cannot. The default calls
    /// ``makeResponse(response:data:)`` and throws a mapping error without a cause on `nil`.
    static func decodeResponse(response: ResponseHead, data: Data) throws -> Self

    /// The media types a body of this type may have, such as `application/json`, `application/*`,
    /// `*/*` or `application/*+json`; `nil` (the default) accepts any. Parameters such as `charset` are
    /// ignored, and an empty body is not checked.
    static var acceptableContentTypes: [String]? { get }
}

extension ApiResponse {
    /// The default policy: ``standardProcess(response:data:error:)``.
    public static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
        standardProcess(response: response, data: data, error: error)
    }

    /// `nil`: any media type.
    public static var acceptableContentTypes: [String]? { nil }

    /// Calls ``makeResponse(response:data:)``; `nil` becomes ``ApiError/mapping(_:)`` without a cause.
    public static func decodeResponse(response: ResponseHead, data: Data) throws -> Self {
        guard let value = makeResponse(response: response, data: data) else {
            throw ApiError.mapping(.init(typeName: String(describing: Self.self), statusCode: response.statusCode))
        }
        return value
    }

    /// The standard policy, callable from a custom ``process(response:data:error:)``:
    /// 1. a transport error fails as the matching ``ApiError`` category;
    /// 2. a status the current method does not accept (see ``CallOptions/AcceptableStatusCodes/current``) fails as
    ///    ``ApiError/unauthorized(_:)`` for 401 and ``ApiError/unacceptableStatus(_:)`` otherwise, with the
    ///    headers and the capped body;
    /// 3. a non-empty body whose media type is not in ``ApiResponse/acceptableContentTypes`` fails as
    ///    ``ApiError/unacceptableContentType(_:)``, with the capped body;
    /// 4. otherwise ``decodeResponse(response:data:)`` runs, and its error becomes ``ApiError/mapping(_:)``
    ///    carrying the cause.
    public static func standardProcess(
        response: ResponseHead?,
        data: Data?,
        error: (any Error)?
    ) -> Result<Self, any Error> {
        if let error {
            return .failure(ApiError(error))
        }
        guard let response else {
            return .failure(ApiError.transport(.init(kind: .badResponse)))
        }
        let body = data ?? Data()
        if let failure = ApiError(unacceptable: response, body: body) {
            return .failure(failure)
        }
        if let acceptable = acceptableContentTypes, !body.isEmpty {
            let received = response.field("Content-Type")
            guard MediaType.matches(received, anyOf: acceptable) else {
                return .failure(
                    ApiError.unacceptableContentType(
                        .init(
                            contentType: received,
                            acceptable: acceptable,
                            statusCode: response.statusCode,
                            body: body
                        )
                    )
                )
            }
        }
        do {
            return .success(try decodeResponse(response: response, data: body))
        } catch let error as ApiError {
            return .failure(error)
        } catch {
            return .failure(
                ApiError.mapping(
                    .init(typeName: String(describing: Self.self), statusCode: response.statusCode, cause: error)
                )
            )
        }
    }
}
