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
        /// `headers` as SwiftNIO's fields, in their order, with `name: value` after them unless a field
        /// already has that name.
        ///
        /// The fields are handed over as one array: `add(name:value:)` walks each name to check that its
        /// bytes are ASCII, one by one through a generic sequence, and AsyncHTTPClient checks every name
        /// and value again before it sends them (CoreAPI's session checked them first; the WebSocket handshake
        /// checks them itself).
        init(_ headers: Headers, addingUnlessPresent name: String, value: String) {
            var fields: [(String, String)] = []
            fields.reserveCapacity(headers.count + 1)
            var present = false
            for field in headers {
                if !present && field.name.equalsIgnoringASCIICase(name) {
                    present = true
                }
                fields.append((field.name, field.value))
            }
            if !present {
                fields.append((name, value))
            }
            self.init(fields)
        }
    }
#endif
