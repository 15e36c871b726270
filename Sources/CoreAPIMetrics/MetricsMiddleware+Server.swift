#if Metrics
    import Foundation

    extension MetricsMiddleware {
        /// Where a request goes, as the dimensions `server.address`, `server.port` and `url.scheme` name it.
        struct Server: Sendable {
            /// The URL's host as it is written: a host is not percent-decoded for a dimension, which spares
            /// decoding it on every request.
            let address: String
            /// The URL's port, else the scheme's: `443` for `https`, `80` otherwise.
            let port: String
            /// The URL's scheme in lower case; `http` and `https` as they are.
            let scheme: String

            /// The server `url` names.
            init(_ url: URL) {
                address = url.host(percentEncoded: true) ?? ""
                let scheme = url.scheme.map { $0 == "https" || $0 == "http" ? $0 : $0.lowercased() } ?? ""
                self.scheme = scheme
                if let port = url.port {
                    self.port = Self.decimal(port)
                } else {
                    self.port = scheme == "https" ? "443" : "80"
                }
            }

            /// `value` in decimal digits. A status code, and a port up to 599, is read from a table made
            /// once: formatting an integer costs more than the rest of a dimension.
            static func decimal(_ value: Int) -> String {
                (100..<600).contains(value) ? texts[value - 100] : String(value)
            }

            /// The texts of 100 to 599.
            private static let texts = (100..<600).map { String($0) }
        }
    }
#endif
