public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The head of an HTTP response: its status, header fields and URL.
///
/// Every transport returns one, middlewares see it in ``RawResponse``, and a response type's
/// ``ApiResponse/process(response:data:error:)`` and ``ApiResponse/makeResponse(response:data:)`` receive
/// it with the body. Repeated header fields stay separate fields, in the order they came, where the
/// engine keeps them apart (the AsyncHTTPClient transport does; FoundationNetworking and URLSession
/// join them with `", "` before CoreAPI sees them).
///
/// Code that needs Foundation's `HTTPURLResponse` asks for ``httpURLResponse``: it is built only then,
/// except over ``URLSessionTransport``, which passes its own through.
///
/// A transport whose engine keeps the fields in a form of its own can hand them over as they are, with
/// ``init(status:fieldSource:url:)``: they are copied into ``Headers`` only when ``headers`` is read, and
/// CoreAPI's own checks look up the few fields they need in the engine's form.
public struct ResponseHead: Sendable {
    /// The status.
    public var status: HTTPStatus {
        get { storage.values.status }
        set { modify { $0.status = newValue } }
    }
    /// The URL the response is for: after redirects, the last one.
    public var url: URL {
        get { storage.values.url }
        set { modify { $0.url = newValue } }
    }
    /// The head's values, in one box: a head passes through the transport, the middlewares and the
    /// response type, often through generic code that copies a value field by field, and a box is one
    /// reference to count. A change makes a new box.
    private var storage: Storage

    /// Creates a response head.
    /// - Parameters:
    ///   - status: The status.
    ///   - headers: The header fields.
    ///   - url: The URL the response is for.
    public init(status: HTTPStatus, headers: Headers = Headers(), url: URL) {
        storage = Storage(status: status, url: url, fields: headers, source: nil, foundation: nil)
    }

    /// Creates a response head whose fields stay in the engine's form until ``headers`` is read.
    ///
    /// Each read of ``headers`` copies them from `fieldSource`; a lookup of one field, as CoreAPI's checks
    /// and a response's content-type check make, asks `fieldSource` for it. Setting ``headers`` replaces
    /// the source.
    /// - Parameters:
    ///   - status: The status.
    ///   - fieldSource: The header fields as the engine keeps them.
    ///   - url: The URL the response is for.
    public init(status: HTTPStatus, fieldSource: some FieldSource, url: URL) {
        storage = Storage(status: status, url: url, fields: nil, source: fieldSource, foundation: nil)
    }

    /// A head made from an engine's `HTTPURLResponse`: its fields are copied only when ``headers`` is
    /// read, and ``httpURLResponse`` returns the object as it is while nothing changed.
    init(status: HTTPStatus, url: URL, foundation response: HTTPURLResponse) {
        storage = Storage(status: status, url: url, fields: nil, source: FoundationHead(response), foundation: response)
    }

    /// The header fields, in the order they came.
    ///
    /// Over URLSession they are copied out of Foundation's response the first time they are read —
    /// ordered by name, repeated fields already joined by Foundation — so a call that reads only a field
    /// or two, as CoreAPI's own checks do, never pays for the rest.
    public var headers: Headers {
        get { storage.values.fields ?? storage.values.source?.headers ?? Headers() }
        set { modify { $0.fields = newValue } }
    }

    /// The value of the field `name` (repeated values joined with `", "`), or `nil`: the same as
    /// `headers[name]`, without copying the fields of a head from Foundation.
    func field(_ name: String) -> String? {
        if let fields = storage.values.fields { return fields[name] }
        return storage.values.source?.value(of: name)
    }

    /// The fields ``HeadChecks`` reads: `Content-Length` and `Content-Encoding`, and whether there is a
    /// `Location` when `needsLocation`. One pass over the fields a head holds; over an engine's fields,
    /// the engine's own lookups.
    func checkedFields(needsLocation: Bool) -> (contentLength: String?, contentEncoding: String?, hasLocation: Bool) {
        if let fields = storage.values.fields {
            let (length, encoding, location) = fields.values(of: ("Content-Length", "Content-Encoding", "Location"))
            return (length, encoding, needsLocation && location != nil)
        }
        // Read through the box: a copy of the existential would count a reference for nothing.
        let (length, encoding, location) =
            storage.values.source?.values(of: ("Content-Length", "Content-Encoding", needsLocation ? "Location" : ""))
            ?? (nil, nil, nil)
        return (length, encoding, location != nil)
    }

    /// The engine's own `HTTPURLResponse`, when the head was made from one and is unchanged since.
    var original: HTTPURLResponse? {
        storage.values.isUnchanged ? storage.values.foundation : nil
    }

    /// Changes the head's values with `change`, in a new box, and marks them changed. A box never
    /// changes: other copies of the head keep theirs.
    private mutating func modify(_ change: (inout Storage.Values) -> Void) {
        var values = storage.values
        change(&values)
        values.isUnchanged = false
        storage = Storage(values)
    }

    /// The status code, such as `200`.
    public var statusCode: Int { status.code }
}

/// The fields of the `HTTPURLResponse` a head was made from, read through Foundation's own lookup until
/// they are first copied out, then from the copy: on Linux, copying them out bridges every name and
/// value through `NSString`, a cost paid for each field.
///
/// Two references, so it sits in the head's existential as it is, with no box of its own; the copy is
/// shared by every copy of the head.
private struct FoundationHead: ResponseHead.FieldSource {
    let response: HTTPURLResponse
    private let copied = LockedValue<Headers?>(nil)

    init(_ response: HTTPURLResponse) {
        self.response = response
    }

    /// The fields, copied out on first use.
    var headers: Headers {
        if let headers = copied.current { return headers }
        let headers = Headers(httpURLResponse: response)
        copied.withLock { $0 = headers }
        return headers
    }

    /// One field's value, from the copy when there is one, else from Foundation's own lookup.
    func value(of name: String) -> String? {
        value(of: name, copied: copied.current)
    }

    /// The values of three names, with one look at whether the fields were copied out.
    func values(of names: (String, String, String)) -> (String?, String?, String?) {
        let copied = copied.current
        return (
            names.0.isEmpty ? nil : value(of: names.0, copied: copied),
            names.1.isEmpty ? nil : value(of: names.1, copied: copied),
            names.2.isEmpty ? nil : value(of: names.2, copied: copied)
        )
    }

    /// The value of `name` in `copied` when the fields were copied out, else from Foundation's lookup.
    private func value(of name: String, copied: Headers?) -> String? {
        if let copied { return copied[name] }
        return response.value(forHTTPHeaderField: name)
    }
}

extension ResponseHead {
    /// A response head's header fields in the form an engine keeps them, handed to
    /// ``ResponseHead/init(status:fieldSource:url:)`` so they are copied into ``Headers`` only when read.
    ///
    /// ```swift
    /// struct EngineFields: ResponseHead.FieldSource {
    ///     let pairs: [(name: String, value: String)]
    ///     var headers: Headers { Headers(pairs.map { Headers.Field(name: $0.name, value: $0.value) }) }
    ///     func value(of name: String) -> String? { headers[name] }
    /// }
    /// ```
    public protocol FieldSource: Sendable {
        /// Every field, in order; repeated names as separate fields where the engine keeps them apart.
        var headers: Headers { get }
        /// The values of the fields called `name`, compared ignoring ASCII case, joined with `", "`;
        /// `nil` when there is none.
        func value(of name: String) -> String?
        /// The values of three names at once, each as ``value(of:)`` returns it; an empty name is skipped
        /// and gets `nil`.
        ///
        /// CoreAPI reads the fields its checks need (`Content-Length`, `Content-Encoding` and, for a
        /// redirect, `Location`) with one call: a source that can find them in one pass over its fields
        /// implements it. The default asks ``value(of:)`` for each name that is not empty.
        func values(of names: (String, String, String)) -> (String?, String?, String?)
    }
}

extension ResponseHead.FieldSource {
    /// Asks ``value(of:)`` for each name that is not empty.
    /// - Parameter names: Three field names; an empty one is skipped.
    /// - Returns: The value of each name, `nil` for an absent or skipped one.
    public func values(of names: (String, String, String)) -> (String?, String?, String?) {
        (
            names.0.isEmpty ? nil : value(of: names.0),
            names.1.isEmpty ? nil : value(of: names.1),
            names.2.isEmpty ? nil : value(of: names.2)
        )
    }
}

extension ResponseHead {
    /// The box of a head's values, which never change once boxed.
    private final class Storage: Sendable {
        /// The values a head holds.
        struct Values: Sendable {
            var status: HTTPStatus
            var url: URL
            /// The fields when they were given or set; `nil` while they are only in `source`.
            var fields: Headers?
            /// The fields in the engine's form, read from it when asked for, while `fields` is `nil`.
            let source: (any ResponseHead.FieldSource)?
            /// The engine's own `HTTPURLResponse` this head was made from.
            let foundation: HTTPURLResponse?
            /// Whether nothing was changed since the head was made from `foundation`.
            var isUnchanged = true
        }

        let values: Values

        init(_ values: Values) {
            self.values = values
        }

        convenience init(
            status: HTTPStatus,
            url: URL,
            fields: Headers?,
            source: (any ResponseHead.FieldSource)?,
            foundation: HTTPURLResponse?
        ) {
            self.init(Values(status: status, url: url, fields: fields, source: source, foundation: foundation))
        }
    }
}

extension ResponseHead: Equatable {
    /// Whether two heads have the same status code, header fields and URL.
    public static func == (lhs: ResponseHead, rhs: ResponseHead) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.url == rhs.url
    }
}

extension ResponseHead: CustomStringConvertible {
    /// The status and URL, such as `200 OK https://api.example.com/items`; no header field, so no
    /// secret.
    public var description: String { "\(status) \(url.absoluteString)" }
}
