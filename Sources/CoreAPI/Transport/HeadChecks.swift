import Foundation

/// What is checked in a response head before its body is read: pure functions of the head, the same
/// for every engine, which ``ResponseCollector`` applies. Only the content codings an engine decodes
/// differ; each transport passes its own set.
///
/// The fields the checks read are looked up once, when it is made.
package struct HeadChecks {
    /// The most body bytes kept of a redirect response (see ``isRedirect``); the rest is not read.
    /// The same as ``ApiError/StatusFailure/maximumBodySize``, all that a `3xx` no method accepts keeps.
    package static let redirectBodyLimit = ApiError.StatusFailure.maximumBodySize

    /// The most content codings one response may stack: libcurl refuses more (its `MAX_ENCODE_STACK`),
    /// and every layer multiplies the work of decoding.
    package static let maximumContentCodings = 5

    /// The status code.
    package let statusCode: Int
    /// The `Content-Length` value, repeated fields joined with `", "`; `nil` when there is none.
    package let contentLength: String?
    /// The `Content-Encoding` value; `nil` when there is none.
    package let contentEncoding: String?
    /// Whether the head has a `Location` field; read only for a status of ``HTTPStatus/isFollowedRedirect(_:)``.
    package let hasLocation: Bool

    /// The fields of `head` the checks read, in one pass over its fields; `Location` counts only when the
    /// status is one a redirect has.
    package init(_ head: ResponseHead) {
        statusCode = head.status.code
        (contentLength, contentEncoding, hasLocation) = head.checkedFields(
            needsLocation: HTTPStatus.isFollowedRedirect(statusCode)
        )
    }

    /// Whether the head is a redirect the session may follow: a status of ``HTTPStatus/isFollowedRedirect(_:)``
    /// with a `Location` field.
    package var isRedirect: Bool {
        hasLocation && HTTPStatus.isFollowedRedirect(statusCode)
    }

    /// The failure for a response head CoreAPI will not read a body after, or `nil` when it is fine:
    /// ``ApiError/TransportFailure/Kind/badResponse`` when its `Content-Length` fields disagree or are
    /// not numbers, or when its body has a content coding the engine does not decode.
    /// - Parameters:
    ///   - method: The method of the request it answers; asked for only when the body is encoded.
    ///   - decodedCodings: The content codings the engine decodes, lower-cased, `identity` included.
    package func failure(method: @autoclosure () -> String?, decodedCodings: Set<String>) -> ApiError? {
        if hasInvalidContentLength || !hasDecodableBody(method: method(), decodedCodings: decodedCodings) {
            return .transport(.init(kind: .badResponse))
        }
        return nil
    }

    /// Whether the `Content-Length` is invalid: its values disagree or one is not a number (RFC 9110
    /// §8.6, RFC 9112 §6.3: such a message is invalid, and a client must not guess where its body ends).
    ///
    /// Repeated fields arrive joined with `", "` (FoundationNetworking joins them so, and other
    /// transports build the head the same way): `Content-Length: 10` and `Content-Length: 5` arrive as
    /// `"10, 5"`, and libcurl then reads the last field alone (5 bytes of the 10 sent, ending the
    /// exchange as a success); one field `10, 5` arrives as it is and libcurl reads the first number.
    /// Values that agree (`"10, 10"`) are one length, which RFC 9110 lets a recipient accept.
    package var hasInvalidContentLength: Bool {
        guard let value = contentLength else { return false }
        if Self.isDigits(value) {
            return false  // one length, the usual case: no list to split
        }
        let lengths = Self.elements(of: value)
        guard lengths.allSatisfy(Self.isDigits) else { return true }
        let numbers = Set(lengths.map { $0.drop { $0 == "0" } })
        return numbers.count > 1
    }

    /// The body length the head declares in `Content-Length`, or `nil` when it declares none (or an
    /// invalid one, see ``hasInvalidContentLength``). A length too large for `Int64` is `Int64.max`:
    /// libcurl reads such a body to the end of the connection and FoundationNetworking reports its length
    /// as unknown, but it is larger than any size limit.
    package var declaredLength: Int64? {
        guard let value = contentLength else { return nil }
        if Self.isDigits(value) {
            return Int64(value) ?? .max
        }
        guard let length = Self.elements(of: value).first, Self.isDigits(length) else { return nil }
        return Int64(length) ?? .max
    }

    /// Whether the body can be decoded: every coding of its `Content-Encoding` is one of
    /// `decodedCodings`, and there are at most ``maximumContentCodings``. A response that has no body
    /// (to `HEAD`, or `204` and `304`) has nothing to decode.
    ///
    /// An unknown coding would otherwise be passed through as it is by some engines (a silent wrong
    /// body), and fail only once body bytes arrive with libcurl.
    /// - Parameters:
    ///   - method: The method of the request it answers; asked for only when the body is encoded.
    ///   - decodedCodings: The content codings the engine decodes, lower-cased, `identity` included.
    package func hasDecodableBody(method: @autoclosure () -> String?, decodedCodings: Set<String>) -> Bool {
        guard let value = contentEncoding else { return true }
        if method()?.uppercased() == "HEAD" || statusCode == 204 || statusCode == 304 {
            return true
        }
        if !value.utf8.contains(UInt8(ascii: ",")), decodedCodings.contains(value.lowercased()) {
            return true  // one known coding, the usual case
        }
        let codings = Self.elements(of: value).map { $0.lowercased() }
        return codings.count <= Self.maximumContentCodings && codings.allSatisfy(decodedCodings.contains)
    }

    /// Whether the head has no `Content-Encoding` other than `identity`: only then does its
    /// `Content-Length`, which counts encoded bytes, tell the size of the decoded body.
    package var isIdentityEncoded: Bool {
        let encoding = contentEncoding?.lowercased() ?? "identity"
        return encoding == "identity" || encoding.isEmpty
    }

    /// Whether the head declares a body that, after `already` bytes kept from before, passes `limit`
    /// before any of it is read: `Content-Length` counts encoded bytes, so it decides early only for
    /// an identity body. The one early size check every transport, stream and download makes.
    package func declaresMore(than limit: Int64, after already: Int64 = 0) -> Bool {
        guard isIdentityEncoded, let declaredLength else { return false }
        return declaredLength > limit - min(max(already, 0), limit)
    }

    /// Whether `text` is one or more ASCII digits.
    package static func isDigits(_ text: some StringProtocol) -> Bool {
        // Over contiguous bytes when the text has them: walking a short string's `utf8` view costs
        // several times as much.
        let digits = text.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.isEmpty && bytes.allSatisfy(isDigit)
        }
        return digits ?? (!text.isEmpty && text.utf8.allSatisfy(isDigit))
    }

    /// Whether `byte` is an ASCII digit.
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The elements of a comma-separated field value without the blanks around them; empty elements,
    /// which RFC 9110 §5.6.1 tells recipients to ignore, are left out.
    package static func elements(of value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
