extension ApiError {
    /// Wraps an encoding failure as an invalid request, keeping the coding path in the text.
    static func encoding(_ error: any Error) -> ApiError {
        if let error = error as? ApiError { return error }
        if case EncodingError.invalidValue(_, let context) = error {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return .invalidRequest(
                .encoding(path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)")
            )
        }
        return .invalidRequest(.encoding(String(describing: error)))
    }
}
