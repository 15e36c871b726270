public import CoreAPI
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ApiResponse {
    /// The policy of a JSON response type with an error body of its own: when the status is not one the
    /// method accepts and the body decodes as `ErrorBody`, the call fails with the error `makeError`
    /// builds; everything else goes through `standardProcess(response:data:error:)`. A service's common
    /// error body, shared by all its methods, is read in the method family's
    /// ``/CoreAPI/ApiMethod/statusError(for:)`` instead, which runs for text, raw and empty responses too.
    ///
    /// Call it from the response type's `process(response:data:error:)`:
    ///
    /// ```swift
    /// extension ShopResponse {
    ///     static func process(response: ResponseHead?, data: Data?, error: (any Error)?) -> Result<Self, any Error> {
    ///         processErrorBody(ShopErrorBody.self, response: response, data: data, error: error) { body, response in
    ///             ShopError(status: response.statusCode, code: body.code)
    ///         }
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - errorBody: The type of the shared error body.
    ///   - decoder: The decoder for the error body.
    ///   - response: The HTTP response, or `nil` when none arrived.
    ///   - data: The body, or `nil` when none arrived.
    ///   - error: The transport error, if any.
    ///   - makeError: Builds the module's error from the decoded body and the response.
    /// - Returns: The module's error, or the result of the standard policy.
    public static func processErrorBody<ErrorBody: Decodable>(
        _ errorBody: ErrorBody.Type,
        decoder: JSONDecoder = JSONDecoder(),
        response: ResponseHead?,
        data: Data?,
        error: (any Error)?,
        makeError: (ErrorBody, ResponseHead) -> any Error
    ) -> Result<Self, any Error> {
        if error == nil, let response, let data, !data.isEmpty,
            !CallOptions.AcceptableStatusCodes.current.contains(response.statusCode),
            let body = try? decoder.decode(ErrorBody.self, from: data)
        {
            return .failure(makeError(body, response))
        }
        return standardProcess(response: response, data: data, error: error)
    }
}
