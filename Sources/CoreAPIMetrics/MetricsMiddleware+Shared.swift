#if Metrics
    import Foundation
    import Metrics

    extension MetricsMiddleware {
        /// What every call through one middleware shares: the factory, the server of the URL read last and
        /// the dimensions made last for each kind of record.
        ///
        /// A client calls a few servers, most often one, and most calls end alike, so what a call needs
        /// is nearly always what the call before it needed: a URL that starts with the same authority
        /// gets its server back without reading its host and formatting its port again, and the same
        /// request, server and outcome get the same dimensions without making an array again (a backend
        /// may keep the array it is given: arrays are values). One object, so the closure that wraps each
        /// exchange captures one reference where it would copy the factory's existential.
        final class Shared: @unchecked Sendable {  // its `var`s are read and written only under `lock`.
            /// The factory metrics are made with.
            let factory: any MetricsFactory
            private let lock = NSLock()
            /// The authority of the plain URL read last (`https://host[:port]`, its bytes) and its server.
            private var last: (authority: [UInt8], server: Server)?
            /// The dimensions made last for each kind of record, with what they were made from.
            private var meter: Kept?
            private var request: Kept?
            private var call: Kept?

            /// A list of dimensions and what it was made from; an object, so keeping it and reading it
            /// back moves one reference rather than copying its strings.
            private final class Kept: Sendable {
                let dimensions: Dimensions
                let list: [(String, String)]

                init(_ dimensions: Dimensions, _ list: [(String, String)]) {
                    self.dimensions = dimensions
                    self.list = list
                }
            }

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

            /// The dimensions of a record of `kind` made from `dimensions`: the ones made last for that
            /// kind when they were made from the same, else made now and kept.
            func list(_ kind: Dimensions.Kind, of dimensions: Dimensions) -> [(String, String)] {
                lock.lock()
                let kept: Kept?
                switch kind {
                case .meter: kept = meter
                case .request: kept = request
                case .call: kept = call
                }
                lock.unlock()
                if let kept, kept.dimensions == dimensions {
                    return kept.list
                }
                let made = Kept(dimensions, dimensions.list(for: kind))
                lock.lock()
                switch kind {
                case .meter: meter = made
                case .request: request = made
                case .call: call = made
                }
                lock.unlock()
                return made.list
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
