#if AsyncHTTPClient
    import CoreAPI
    import Dispatch
    import NIOConcurrencyHelpers
    import NIOCore

    /// What the transport knows of its own client's connections: which exchange a new connection was
    /// opened for, and which event loops the open connections to each port run on. AsyncHTTPClient shows
    /// no connection event but its connection initializer, which runs once a connection is up (TLS
    /// included), with no word of the request that asked for it.
    ///
    /// **Credit.** The pool hands a new connection to the request that has waited longest for one, so the
    /// log credits it to the oldest exchange to the same port still waiting for its response head without
    /// a connection credited. With exchanges to several hosts on the same port in flight at once, the
    /// credit may go to another of them; an exchange never credited went over a connection that was open
    /// already.
    ///
    /// **Event loops.** AsyncHTTPClient calls a delegate on the event loop the request names, and hops
    /// there from the connection's loop for every head, body part and end when the two differ. Its pool
    /// prefers an idle connection on the named loop, so naming a loop that has open connections to the
    /// server, in turn among such loops, keeps the callbacks on the connection's loop whenever one of
    /// them is idle, and spreads the delegates over the loops as the connections are.
    final class ConnectionLog: Sendable {
        private struct State {
            /// The exchanges waiting for a response head, oldest first, with the port they connect to.
            var waiting: [(port: Int, exchange: TrackedExchange)] = []
            /// The event loops with open connections, per port, with how many are open on each.
            var loops: [(port: Int, loop: any EventLoop, open: Int)] = []
            /// How many loops were named so far: the turn of the next one.
            var turn = 0

            /// Where `loop`'s count for `port` is in `loops`.
            func index(of loop: any EventLoop, port: Int) -> Int? {
                loops.firstIndex { $0.port == port && $0.loop === loop }
            }
        }

        private let state = NIOLockedValueBox(State())

        /// Notes that `exchange` is about to be handed to the client, for a server on `port`.
        /// - Returns: The event loop to name for it: one with an open connection to `port`, in turn, or
        ///   `nil` when there is none.
        func wait(_ exchange: TrackedExchange, port: Int) -> (any EventLoop)? {
            state.withLockedValue { state in
                state.waiting.append((port, exchange))
                // Two plain passes over the few entries: count the loops open to `port`, then take the one
                // whose turn it is.
                var count = 0
                for entry in state.loops where entry.port == port {
                    count += 1
                }
                guard count > 0 else { return nil }
                var skip = state.turn % count
                state.turn &+= 1
                for entry in state.loops where entry.port == port {
                    if skip == 0 { return entry.loop }
                    skip -= 1
                }
                return nil
            }
        }

        /// Notes that `exchange` got its response head, or failed.
        func stopWaiting(_ exchange: TrackedExchange) {
            state.withLockedValue { state in
                if let index = state.waiting.firstIndex(where: { $0.exchange === exchange }) {
                    state.waiting.remove(at: index)
                }
            }
        }

        /// Credits `channel`, a connection that is up now, to the oldest exchange waiting for one to the
        /// same port, and counts it on its event loop until it closes.
        func opened(_ channel: any Channel) {
            opened(port: channel.remoteAddress?.port, on: channel.eventLoop, closing: channel.closeFuture)
        }

        /// Credits a connection to `port` that is up now on `loop` to the oldest exchange waiting for one
        /// to that port, and counts it on `loop` until `closing` completes.
        func opened(port: Int?, on loop: any EventLoop, closing: EventLoopFuture<Void>) {
            let now = DispatchTime.now().uptimeNanoseconds
            state.withLockedValue { state in
                if let index = state.waiting.firstIndex(where: { $0.port == port }) {
                    state.waiting.remove(at: index).exchange.openedConnection(at: now)
                }
                guard let port else { return }
                if let index = state.index(of: loop, port: port) {
                    state.loops[index].open += 1
                } else {
                    state.loops.append((port, loop, 1))
                }
            }
            guard let port else { return }
            closing.whenComplete { [self] _ in
                state.withLockedValue { state in
                    guard let index = state.index(of: loop, port: port) else { return }
                    state.loops[index].open -= 1
                    if state.loops[index].open == 0 {
                        state.loops.remove(at: index)
                    }
                }
            }
        }
    }
#endif
