#if AsyncHTTPClient
    import CoreAPI
    import NIOHTTP1

    /// A response's fields as SwiftNIO parsed them, handed to CoreAPI's head as they are: copied into
    /// `Headers` only when the head's `headers` are read, and looked up in place by CoreAPI's checks.
    struct NIOFieldSource: ResponseHead.FieldSource {
        let fields: HTTPHeaders

        var headers: Headers { Headers(fields) }

        func value(of name: String) -> String? {
            var joined: String?
            for (fieldName, value) in fields where fieldName.equalsIgnoringASCIICase(name) {
                Headers.join(value, to: &joined)
            }
            return joined
        }
    }
#endif
