#if Metrics
    import Foundation
    import Metrics

    extension MetricsMiddleware {
        /// What every call through one middleware shares: the factory, and the server of the URL read last.
        ///
        /// A client calls a few servers, most often one, so the server of a call's URL is nearly always
        /// the one read before it: a URL that starts with the same authority gets it back without reading
        /// its host and formatting its port again. One object, so the closure that wraps each exchange
        /// captures one reference where it would copy the factory's existential.
        final class Shared: @unchecked Sendable {  // `last` is read and written only under `lock`.
            /// The factory metrics are made with.
            let factory: any MetricsFactory
            private let lock = NSLock()
            /// The authority of the plain URL read last (`https://host[:port]`, its bytes) and its server.
            private var last: (authority: [UInt8], server: Server)?

            /// Shares `factory`.
            init(factory: any MetricsFactory) {
                self.factory = factory
            }

            /// The server `url` names: the one read last when `url` starts with its authority, else read
            /// from the URL's bytes when it is a plain one, else as Foundation reads it.
            func server(of url: URL) -> Server {
                // A URL without a base is its relative string, which Foundation keeps as it was given.
                if url.baseURL == nil,
                    let server = url.relativeString.utf8.withContiguousStorageIfAvailable({ server(ofPlain: $0) })
                        ?? nil
                {
                    return server
                }
                return Server(parts: url)
            }

            /// The server of the URL `bytes` spell when it is a plain one (``Server/reading(_:)``).
            private func server(ofPlain bytes: UnsafeBufferPointer<UInt8>) -> Server? {
                lock.lock()
                if let last, Self.starts(bytes, with: last.authority) {
                    lock.unlock()
                    return last.server
                }
                lock.unlock()
                guard let (server, authorityEnd) = Server.reading(bytes) else { return nil }
                let authority = Array(UnsafeBufferPointer(rebasing: bytes[..<authorityEnd]))
                lock.lock()
                last = (authority, server)
                lock.unlock()
                return server
            }

            /// Whether `bytes` are `authority` followed by the end or by a byte that ends an authority:
            /// then they name the same server.
            private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with authority: [UInt8]) -> Bool {
                let count = authority.count
                guard bytes.count >= count, bytes.count == count || Server.isAuthorityEnd(bytes[count]) else {
                    return false
                }
                return authority.withUnsafeBufferPointer { own in
                    guard let start = own.baseAddress, let other = bytes.baseAddress else { return false }
                    return memcmp(start, other, count) == 0
                }
            }
        }
    }
#endif
