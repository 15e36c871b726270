public import CoreAPI
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension GraphQL {
    /// The body of a GraphQL response: `data` of the expected type and the `errors` array.
    ///
    /// A ``GraphQLMethod`` turns it into its data or a ``GraphQL/Failure``; use it directly to see both.
    /// An error status whose body still has GraphQL errors (a server that answers `400` for an invalid
    /// query) fails with a ``GraphQL/Failure`` as well, not with a bare status error.
    public struct Response<ResultData: Decodable & Sendable>: JSONApiResponse {
        /// The data, or `nil` when the response had none (or `null`).
        public let data: ResultData?
        /// The errors; empty when there were none.
        public let errors: [GraphQL.Error]
        /// The HTTP status of the response; 200 for a value made with ``init(data:errors:)``.
        public private(set) var statusCode = 200

        private enum CodingKeys: String, CodingKey { case data, errors }

        /// Creates a response.
        public init(data: ResultData?, errors: [GraphQL.Error] = []) {
            self.data = data
            self.errors = errors
        }

        /// Decodes `data` and `errors`; when both are present and `data` does not decode, the errors are
        /// kept and `data` is `nil`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            errors = try container.decodeIfPresent([GraphQL.Error].self, forKey: .errors) ?? []
            if errors.isEmpty {
                data = try container.decodeIfPresent(ResultData.self, forKey: .data)
            } else {
                data = try? container.decodeIfPresent(ResultData.self, forKey: .data)
            }
        }

        /// The data type's decoder when it is a ``JSONApiResponse``; the shared default otherwise.
        public static var decoder: JSONDecoder {
            (ResultData.self as? any JSONApiResponse.Type)?.decoder ?? JSONDefaults.decoder
        }

        /// Decodes the body with ``decoder`` and keeps the response's status.
        /// - Throws: The `DecodingError` of a body that is not a GraphQL response.
        public static func decodeResponse(response: ResponseHead, data: Data) throws -> Self {
            var decoded = try decoder.decode(Self.self, from: data)
            decoded.statusCode = response.statusCode
            return decoded
        }

        /// The standard policy, except that an error status whose body has GraphQL errors fails with
        /// those errors.
        public static func process(
            response: ResponseHead?,
            data: Data?,
            error: (any Swift.Error)?
        ) -> Result<Self, any Swift.Error> {
            if error == nil, let response, let data, !data.isEmpty,
                !CallOptions.AcceptableStatusCodes.current.contains(response.statusCode),
                let body = try? decoder.decode(Self.self, from: data), !body.errors.isEmpty
            {
                return .failure(
                    GraphQL.Failure(errors: body.errors, partialData: body.data, statusCode: response.statusCode)
                )
            }
            return standardProcess(response: response, data: data, error: error)
        }
    }
}
