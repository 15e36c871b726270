#if AsyncHTTPClient
    import CoreAPI
    import NIOCore
    import NIOSSL

    /// The check of public-key pins on each new connection of a client the transport made: its
    /// connection debug initializers.
    ///
    /// AsyncHTTPClient builds the TLS handler itself and lets no verification callback into it, but it
    /// runs a connection's initializer once the connection is up — after the handshake, so after SwiftNIO
    /// SSL has verified the chain and the host name — and before any request is written on it. The
    /// initializer reads the key of the server's certificate (the only one the handler shows without a
    /// callback of its own), and fails when it is not pinned; the connection is closed, and the pool,
    /// which does not retry a failed connection (`retryConnectionEstablishment` is off in
    /// `makeClientConfiguration()`), fails the requests waiting for it with the initializer's error at
    /// once.
    struct PinnedKeyCheck: Sendable {
        /// The SHA-256 digests of the pinned SubjectPublicKeyInfos.
        let digests: Set<[UInt8]>

        /// What a connection whose key is not pinned fails with; the transport turns it into a transport
        /// failure naming the host of the request.
        struct Mismatch: Error {}

        /// Checks the key of the server `channel` is connected to; a channel without TLS has nothing to
        /// check.
        /// - Parameter channel: A connection that has just been made.
        /// - Returns: A future that fails with ``Mismatch`` when the key is not pinned.
        func check(_ channel: any Channel) -> EventLoopFuture<Void> {
            channel.eventLoop.submit { [digests] in
                let handler: NIOSSLHandler
                do {
                    handler = try channel.pipeline.syncOperations.handler(type: NIOSSLHandler.self)
                } catch {
                    return  // plain HTTP
                }
                let key = try? handler.peerCertificate?.extractPublicKey().toSPKIBytes()
                guard let key, digests.contains(SHA256.digest(of: key)) else {
                    channel.close(promise: nil)
                    throw Mismatch()
                }
            }
        }
    }
#endif
