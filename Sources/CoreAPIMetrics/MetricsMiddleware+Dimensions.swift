#if Metrics
    extension MetricsMiddleware {
        /// What the dimensions of one record are made from: the request, its server, the method's type
        /// name and the outcome, for each of the three records the middleware makes.
        struct Dimensions: Equatable, Sendable {
            /// The records the middleware makes, each with dimensions of its own.
            enum Kind: Sendable {
                /// `http.client.active_requests`: the method, the server's address, port and scheme.
                case meter
                /// `http.client.request.duration`: the meter's, the method's type name and the outcome.
                case request
                /// `coreapi.client.call.duration`: the method, the server's address, the method's type
                /// name and the outcome.
                case call
            }

            /// The HTTP method as the conventions name it (``MetricsMiddleware/method(of:)``).
            var method: String
            /// Where the request went.
            var server: Server
            /// The method's type name; empty for the meter, which does not record it.
            var methodName: String
            /// The response's status code; `0` when there was none.
            var status: Int
            /// Whether the status counts as a failure: then it is the `error.type` too.
            var failed: Bool
            /// The failure's category, the `error.type` of a request or call that threw.
            var category: String?

            /// The dimensions of a record of `kind`, in the order they have always had.
            func list(for kind: Kind) -> [(String, String)] {
                var dimensions: [(String, String)] = []
                dimensions.reserveCapacity(7)
                dimensions.append(("http.request.method", method))
                dimensions.append(("server.address", server.address))
                if kind != .call {
                    dimensions.append(("server.port", server.port))
                    dimensions.append(("url.scheme", server.scheme))
                }
                if kind == .meter {
                    return dimensions
                }
                dimensions.append(("coreapi.method", methodName))
                if status != 0 {
                    let text = Server.decimal(status)
                    dimensions.append(("http.response.status_code", text))
                    if failed {
                        dimensions.append(("error.type", text))
                    }
                }
                if let category {
                    dimensions.append(("error.type", category))
                }
                return dimensions
            }
        }
    }
#endif
