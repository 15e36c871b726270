extension CallOptions {
    /// The errors a method fails with for statuses of its own, in place of the generic status error.
    ///
    /// The successor of a method-specific `makeSpecificError`: a status listed here ends the call with the
    /// error given for it, before the response type's ``ApiResponse/process(response:data:error:)`` runs, so
    /// a `404` with an empty body becomes the module's typed error in one line:
    ///
    /// ```swift
    /// struct GetItem: ApiMethod {
    ///     typealias Response = Data
    ///     @Excluded var id: Int
    ///     var hostProviderKey: String { "api" }
    ///     var path: String { "/items/\(id)" }
    ///     var options: CallOptions { CallOptions(statusErrors: [.notFound: ShopError.noSuchItem]) }
    /// }
    /// ```
    ///
    /// An error that depends on the body — a body only this method's failures have — is built by a closure
    /// that receives the ``ApiError/StatusFailure`` with the status, header fields and body:
    ///
    /// ```swift
    /// var options: CallOptions {
    ///     CallOptions(
    ///         statusErrors: CallOptions.StatusErrors().on(.conflict) { failure in
    ///             (try? JSONDecoder().decode(Conflict.self, from: failure.body)).map(ShopError.conflict) ?? ShopError.unknown
    ///         }
    ///     )
    /// }
    /// ```
    ///
    /// Only statuses the method does not accept (see ``CallOptions/acceptableStatusCodes``) are looked up.
    public struct StatusErrors: Sendable, ExpressibleByDictionaryLiteral {
        /// The rule of each listed status.
        private var rules: [HTTPStatus: @Sendable (ApiError.StatusFailure) -> any Error]

        /// No statuses: every status error stays the generic one.
        public init() {
            rules = [:]
        }

        /// A fixed error for each listed status; a status listed twice keeps its last error.
        public init(dictionaryLiteral elements: (HTTPStatus, any Error & Sendable)...) {
            rules = [:]
            for (status, error) in elements {
                rules[status] = { _ in error }
            }
        }

        /// These rules with `status` mapped to the error `makeError` builds from the failure.
        /// - Parameters:
        ///   - status: The status.
        ///   - makeError: Builds the error from the status, header fields and body of the response.
        /// - Returns: The rules with this one added, replacing any earlier rule for `status`.
        public func on(
            _ status: HTTPStatus,
            _ makeError: @escaping @Sendable (ApiError.StatusFailure) -> any Error
        ) -> CallOptions.StatusErrors {
            var copy = self
            copy.rules[status] = makeError
            return copy
        }

        /// Whether no status is listed.
        public var isEmpty: Bool { rules.isEmpty }

        /// The error for `failure`'s status, or `nil` when it is not listed.
        public func error(for failure: ApiError.StatusFailure) -> (any Error)? {
            rules[HTTPStatus(failure.statusCode)].map { $0(failure) }
        }

        /// These rules with `other`'s added; `other`'s win for the same status.
        func merging(_ other: CallOptions.StatusErrors) -> CallOptions.StatusErrors {
            guard !other.rules.isEmpty else { return self }
            var merged = self
            merged.rules.merge(other.rules) { _, theirs in theirs }
            return merged
        }
    }
}
