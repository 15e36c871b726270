#if Metrics
    import Foundation

    extension MetricsMiddleware {
        /// Where a request goes, as the dimensions `server.address`, `server.port` and `url.scheme` name it.
        ///
        /// An object: the server read last is handed to every call to it and compared as dimensions are
        /// looked up, and a reference is copied and compared where three strings would be.
        final class Server: Sendable, Equatable {
            /// The URL's host as it is written: a host is not percent-decoded for a dimension, which spares
            /// decoding it on every request.
            let address: String
            /// The URL's port, else the scheme's: `443` for `https`, `80` otherwise.
            let port: String
            /// The URL's scheme in lower case; `http` and `https` as they are.
            let scheme: String

            /// A server of the given parts.
            init(address: String, port: String, scheme: String) {
                self.address = address
                self.port = port
                self.scheme = scheme
            }

            /// The server of a URL as Foundation reads its parts.
            convenience init(parts url: URL) {
                let scheme = url.scheme.map { $0 == "https" || $0 == "http" ? $0 : $0.lowercased() } ?? ""
                self.init(
                    address: url.host(percentEncoded: true) ?? "",
                    port: url.port.map(Self.decimal) ?? (scheme == "https" ? "443" : "80"),
                    scheme: scheme
                )
            }

            /// Whether two servers have the same parts; the same object has.
            static func == (lhs: Server, rhs: Server) -> Bool {
                lhs === rhs || (lhs.address == rhs.address && lhs.port == rhs.port && lhs.scheme == rhs.scheme)
            }

            /// The server of `text` when it is a plain `http` or `https` URL (see ``reading(_:)``); `nil` for
            /// anything else, or a string whose bytes are not stored contiguously.
            static func plain(_ text: String) -> Server? {
                text.utf8.withContiguousStorageIfAvailable { reading($0)?.server } ?? nil
            }

            /// The server of the URL `bytes` spell when it is a plain `http` or `https` URL —
            /// `https://host[:port]` then the end, `/`, `?` or `#` — the URLs CoreAPI builds, with the number
            /// of bytes up to the end of its authority; `nil` for anything else (user information, an IPv6
            /// or percent-encoded host, another scheme), which Foundation reads.
            ///
            /// Reading it through Foundation's three getters is costly on Linux; a plain URL's server is
            /// found in one pass over its first bytes.
            static func reading(_ bytes: UnsafeBufferPointer<UInt8>) -> (server: Server, authorityEnd: Int)? {
                // `http://` or `https://`.
                guard bytes.count > 8, bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"),
                    bytes[2] == UInt8(ascii: "t"), bytes[3] == UInt8(ascii: "p")
                else { return nil }
                let secure = bytes[4] == UInt8(ascii: "s")
                var index = secure ? 5 : 4
                guard bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                    bytes[index + 2] == UInt8(ascii: "/")
                else { return nil }
                index += 3
                let scheme = secure ? "https" : "http"
                let hostStart = index
                var port = 0
                var portDigits = -1  // no colon yet
                while index < bytes.count {
                    let byte = bytes[index]
                    if isAuthorityEnd(byte) {
                        break
                    }
                    let digit = byte &- UInt8(ascii: "0")
                    if portDigits >= 0 {  // after the colon: the port's digits only, five at most
                        guard digit < 10, portDigits < 5 else { return nil }
                        portDigits += 1
                        port = port * 10 + Int(digit)
                    } else if byte == UInt8(ascii: ":") {
                        portDigits = 0
                    } else {  // the host: lower-case letters, digits, `-` and `.`
                        guard
                            byte &- UInt8(ascii: "a") < 26 || digit < 10 || byte == UInt8(ascii: "-")
                                || byte == UInt8(ascii: ".")
                        else { return nil }
                    }
                    index += 1
                }
                let hostEnd = portDigits < 0 ? index : index - portDigits - 1
                guard hostEnd > hostStart, portDigits != 0 else { return nil }
                let server = Server(
                    address: String(decoding: UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]), as: UTF8.self),
                    port: portDigits < 0 ? (secure ? "443" : "80") : decimal(port),
                    scheme: scheme
                )
                return (server, index)
            }

            /// Whether `byte` ends a URL's authority: `/`, `?` or `#`.
            static func isAuthorityEnd(_ byte: UInt8) -> Bool {
                byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
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
