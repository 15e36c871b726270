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
