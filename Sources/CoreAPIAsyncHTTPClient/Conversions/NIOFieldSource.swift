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

        /// One pass over the fields for the three names; a field's name is compared only with the names of
        /// its length, which most fields have none of.
        func values(of names: (String, String, String)) -> (String?, String?, String?) {
            let lengths = (names.0.utf8.count, names.1.utf8.count, names.2.utf8.count)
            var found: (String?, String?, String?) = (nil, nil, nil)
            for (name, value) in fields {
                let length = name.utf8.count
                if length == lengths.0, name.equalsIgnoringASCIICase(names.0) {
                    Headers.join(value, to: &found.0)
                } else if length == lengths.1, name.equalsIgnoringASCIICase(names.1) {
                    Headers.join(value, to: &found.1)
                } else if length == lengths.2, name.equalsIgnoringASCIICase(names.2) {
                    Headers.join(value, to: &found.2)
                }
            }
            return found
        }
    }
#endif
