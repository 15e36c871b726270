#if AsyncHTTPClient
    import CoreAPI
    import NIOHTTP1

    /// CoreAPI's header fields from SwiftNIO's and back: in order, repeated names kept as separate fields
    /// (`Set-Cookie` among them).
    extension Headers {
        /// The fields of `headers`, in order.
        init(_ headers: HTTPHeaders) {
            var fields: [Headers.Field] = []
            fields.reserveCapacity(headers.count)
            for (name, value) in headers {
                fields.append(Headers.Field(name: name, value: value))
            }
            self.init(fields)
        }
    }

    /// A response's fields as SwiftNIO parsed them, handed to CoreAPI's head as they are: copied into
    /// `Headers` only when the head's `headers` are read, and looked up in place by CoreAPI's checks.
    struct NIOFieldSource: ResponseHead.FieldSource {
        let fields: HTTPHeaders

        var headers: Headers { Headers(fields) }

        func value(of name: String) -> String? {
            var joined: String?
            for (fieldName, value) in fields where fieldName.equalsIgnoringASCIICase(name) {
                joined = joined.map { $0 + ", " + value } ?? value
            }
            return joined
        }
    }

    extension HTTPHeaders {
        /// The fields of `headers`, in order, with room for `extra` more.
        init(_ headers: Headers, reservingExtra extra: Int = 0) {
            self.init()
            reserveCapacity(headers.count + extra)
            for field in headers {
                add(name: field.name, value: field.value)
            }
        }
    }
#endif
