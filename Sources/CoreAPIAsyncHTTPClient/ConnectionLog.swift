#if AsyncHTTPClient
    import CoreAPI

    /// Which exchange a new connection of the transport's own client was opened for, as far as the
    /// transport can tell: AsyncHTTPClient shows no connection event but its connection initializer, which
    /// runs once a connection is up (TLS included), with no word of the request that asked for it.
    ///
    /// The pool hands a new connection to the request that has waited longest for one, so the log credits
    /// it to the oldest exchange to the same port still waiting for its response head without a
    /// connection credited. With exchanges to several hosts on the same port in flight at once, the
    /// credit may go to another of them; an exchange never credited went over a connection that was open
    /// already.
    final class ConnectionLog: Sendable {
        /// The exchanges waiting for a response head, oldest first, with the port they connect to.
        private let waiting = LockedValue<[(port: Int, exchange: TrackedExchange)]>([])

        /// Notes that `exchange` is about to be handed to the client, for a server on `port`.
        func wait(_ exchange: TrackedExchange, port: Int) {
            waiting.withLock { $0.append((port, exchange)) }
        }

        /// Notes that `exchange` got its response head, or failed.
        func stopWaiting(_ exchange: TrackedExchange) {
            waiting.withLock { waiting in
                if let index = waiting.firstIndex(where: { $0.exchange === exchange }) {
                    waiting.remove(at: index)
                }
            }
        }

        /// Credits a connection to a server on `port` that is up now to the oldest exchange waiting for
        /// one.
        func opened(port: Int?) {
            let now = ContinuousClock.now
            waiting.withLock { waiting in
                guard let index = waiting.firstIndex(where: { $0.port == port }) else { return }
                waiting.remove(at: index).exchange.openedConnection(at: now)
            }
        }
    }
#endif
