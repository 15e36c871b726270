public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The expected model, or a fallback model when the reply does not decode as the expected one.
///
/// For replies that come in two shapes — a new and a legacy format, a result or a well-formed
/// "nothing found" body — the caller gets a typed outcome instead of a mapping error:
///
/// ```swift
/// struct GetProfile: ApiMethod {
///     typealias Response = OrFallback<Profile, LegacyProfile>
///     var hostProviderKey: String { "api" }
///     var path: String { "/profile" }
/// }
///
/// switch try await session.perform(GetProfile()) {
/// case .value(let profile): show(profile)
/// case .fallback(let legacy, _): show(Profile(legacy))
/// }
/// ```
///
/// The status is checked first, as for any response; only a body that fails to parse as `Value` is
/// tried as `Fallback`. When neither parses, the call fails with `Value`'s mapping error.
public enum OrFallback<Value: ApiResponse, Fallback: ApiResponse>: ApiResponse {
    /// The body parsed as the expected type.
    case value(Value)
    /// The body did not parse as `Value`, for the reason given, and parsed as `Fallback`.
    case fallback(Fallback, valueError: any Error)

    /// The expected model, or `nil` when the fallback was used.
    public var value: Value? {
        guard case .value(let value) = self else { return nil }
        return value
    }

    /// The fallback model, or `nil` when the expected one parsed.
    public var fallback: Fallback? {
        guard case .fallback(let fallback, _) = self else { return nil }
        return fallback
    }

    /// `Value`'s parse, else `Fallback`'s.
    /// - Throws: `Value`'s parse error when neither type parses.
    public static func decodeResponse(response: ResponseHead, data: Data) throws -> Self {
        do {
            return .value(try Value.decodeResponse(response: response, data: data))
        } catch let valueError {
            guard let fallback = try? Fallback.decodeResponse(response: response, data: data) else {
                throw valueError
            }
            return .fallback(fallback, valueError: valueError)
        }
    }

    /// ``decodeResponse(response:data:)``, or `nil` when neither type parses.
    public static func makeResponse(response: ResponseHead, data: Data) -> Self? {
        try? decodeResponse(response: response, data: data)
    }
}
