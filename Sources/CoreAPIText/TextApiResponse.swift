public import CoreAPI
public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A mixin that makes a type an `ApiResponse` built from a text body.
///
/// The body is decoded with the ``Charset`` of the response's `Content-Type` `charset` parameter (UTF-8
/// when it is missing or unknown), then passed to ``init(text:)``.
///
/// ```swift
/// struct Version: TextApiResponse {
///     let major: Int
///     init?(text: String) {
///         guard let major = Int(text.prefix { $0 != "." }) else { return nil }
///         self.major = major
///     }
/// }
/// ```
///
/// A failure becomes `ApiError.mapping` whose cause is a ``Charset/DecodingError``.
/// `String` adopts the protocol, so a method can return the body text as is, and so do `Int`, `Double`,
/// `Decimal`, `Bool` and `UUID` for a body that is one such value.
public protocol TextApiResponse: ApiResponse {
    /// Creates a value from the decoded body text, or `nil` when the text is not acceptable.
    /// - Parameter text: The whole body, decoded; a leading byte order mark is already removed.
    init?(text: String)
}

extension TextApiResponse {
    /// `nil`: any media type.
    public static var acceptableContentTypes: [String]? { nil }

    /// Decodes the body with ``Charset/init(response:)`` and passes the text to ``init(text:)``.
    /// - Throws: ``Charset/DecodingError/invalidBytes(charset:)`` when the body is not valid in the charset,
    ///   ``Charset/DecodingError/rejectedText`` when ``init(text:)`` returns `nil`.
    public static func decodeResponse(response: ResponseHead, data: Data) throws -> Self {
        let charset = Charset(response: response)
        guard let text = charset.decode(data) else {
            throw Charset.DecodingError.invalidBytes(charset: charset.name)
        }
        guard let value = Self(text: text) else {
            throw Charset.DecodingError.rejectedText
        }
        return value
    }

    /// Decodes the body as ``decodeResponse(response:data:)`` does, or `nil` on failure; prefer
    /// ``decodeResponse(response:data:)``, which keeps the reason.
    public static func makeResponse(response: ResponseHead, data: Data) -> Self? {
        try? decodeResponse(response: response, data: data)
    }
}

extension Charset {
    /// Why a text body could not become a ``TextApiResponse``.
    public enum DecodingError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
        /// The body is not valid in the charset with this ``Charset/name``.
        case invalidBytes(charset: String)
        /// The body was decoded, but ``TextApiResponse/init(text:)`` returned `nil`.
        case rejectedText

        /// A one-line description; it never contains the body.
        public var description: String {
            switch self {
            case .invalidBytes(let charset): "the body is not valid \(charset) text"
            case .rejectedText: "the body text was rejected by init?(text:)"
            }
        }

        /// The same text as ``description``.
        public var errorDescription: String? { description }
    }
}

extension Charset {
    /// The charset a response declares, or ``utf8`` when it declares none or one that is not supported.
    ///
    /// The label is the `charset` parameter of its `Content-Type` field, whose name matches in any
    /// case (`Charset=UTF-8` too).
    /// - Parameter response: The response head whose body is decoded.
    public init(response: ResponseHead) {
        let label = response.headers["Content-Type"].flatMap(Self.charsetParameter(in:))
        self = label.flatMap(Charset.init(ianaName:)) ?? .utf8
    }

    /// The raw value of the `charset` parameter of a `Content-Type` value, with any quotes; parameter
    /// names match case-insensitively, and semicolons inside quoted strings do not split parameters.
    static func charsetParameter(in contentType: String) -> String? {
        var parameters: [Substring] = []
        var start = contentType.startIndex
        var quoted = false
        var escaped = false
        for index in contentType.indices {
            let character = contentType[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";" && !quoted {
                parameters.append(contentType[start..<index])
                start = contentType.index(after: index)
            }
        }
        parameters.append(contentType[start...])
        for parameter in parameters.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let name = parameter[..<equals].trimmingCharacters(in: .whitespaces)
            if name.lowercased() == "charset" {
                return String(parameter[parameter.index(after: equals)...])
            }
        }
        return nil
    }
}
