import CoreAPI
import Foundation

/// The cases about broken exchanges: each ends the call with its kind of transport failure.
extension TransportConformance {
    static var faultCases: [Case] {
        [reportsAConnectionLostAfterTheHead, reportsARefusedConnection, reportsAGarbageResponse]
    }

    static let reportsAConnectionLostAfterTheHead = Case(
        "reportsAConnectionLostAfterTheHead",
        """
        A connection that closes after the head and 100 of 1,000 body bytes ends the call with a \
        transport failure of kind connectionLost.
        """
    ) { run in
        let what = "a connection closed mid-body to end with a connectionLost transport failure"
        let (error, _) = try await run.error(of: ConformanceCall(url: run.url("/close-after-head")), expecting: what)
        try run.expectTransportFailure(error, kind: .connectionLost, what)
    }

    static let reportsARefusedConnection = Case(
        "reportsARefusedConnection",
        "A call to a loopback port nobody listens on ends with a transport failure of kind cannotConnect."
    ) { run in
        let (socket, port) = try LoopbackSocket.bound(listens: false)
        socket.close()
        let what = "a refused connection to end with a cannotConnect transport failure"
        let (error, _) = try await run.error(
            of: ConformanceCall(url: URL(string: "http://127.0.0.1:\(port)/refused")!),
            expecting: what
        )
        try run.expectTransportFailure(error, kind: .cannotConnect, what)
    }

    static let reportsAGarbageResponse = Case(
        "reportsAGarbageResponse",
        "A status line that is not HTTP (`HTTP/1.1 abc`) ends the call with a transport failure of kind badResponse."
    ) { run in
        let what = "a garbage status line to end with a badResponse transport failure"
        let (error, _) = try await run.error(of: ConformanceCall(url: run.url("/garbage")), expecting: what)
        try run.expectTransportFailure(error, kind: .badResponse, what)
    }
}
