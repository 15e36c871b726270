import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension SerialLoopback {
    /// Broken exchanges of the misbehaving fixture, over every transport: each ends the call soon with its
    /// kind of transport failure, while length fields and codings that are valid are read, and an untrusted
    /// certificate is a TLS failure.
    @Suite(.timeLimit(.minutes(1)))
    struct TransportFaultTests {
        let server: FixtureServer

        init() throws {
            server = try FixtureServer.shared()
        }

        /// A session over `transport` with the default policy.
        func makeSession(_ transport: TestTransport) -> ApiSession {
            transport.makeSession(hostProvider: server.hosts)
        }

        func url(_ path: String) -> String { server.baseURL + path }

        typealias FaultRow = (path: String, kind: ApiError.TransportFailure.Kind, linuxCode: Int?)

        /// Every broken exchange of the fixture, the kind of transport failure it ends with and, on Linux,
        /// the `URLError` code FoundationNetworking reports for it (`nil`: CoreAPI's own check, no code).
        static let transportFaults: [FaultRow] = [
            // The head arrived, then the connection ended: -1, "transfer closed with 900 bytes remaining to read".
            ("/fault/close-mid-body", .connectionLost, -1),
            // -1, "transfer closed with outstanding read data remaining".
            ("/fault/truncated-chunked", .connectionLost, -1),
            // -1005, "Recv failure: Connection reset by peer", before any head.
            ("/fault/reset", .connectionLost, -1005),
            // -1002, "Unsupported HTTP version in response".
            ("/fault/garbage-status", .badResponse, -1002),
            // -1002, "Received HTTP/0.9 when not allowed".
            ("/fault/garbage-status?line=HELLO", .badResponse, -1002),
            // -1, "Header without colon".
            ("/fault/garbage-header?kind=colon", .badResponse, -1),
            // -1, "Nul byte in header".
            ("/fault/garbage-header?kind=nul", .badResponse, -1),
            // Content-Length: 10 and Content-Length: 5 (libcurl alone returns 5 of the 10 bytes).
            ("/fault/conflicting-content-length", .badResponse, nil),
            ("/fault/conflicting-content-length?lengths=5,10", .badResponse, nil),
            ("/fault/conflicting-content-length?joined=1", .badResponse, nil),
            // -1, "Invalid Content-Length: value", before the head.
            ("/fault/conflicting-content-length?lengths=10,abc", .badResponse, -1),
            ("/fault/conflicting-content-length?lengths=abc", .badResponse, -1),
            // A coding nothing decodes (libcurl alone fails once body bytes arrive).
            ("/fault/encoding?value=bogus", .badResponse, nil),
            ("/fault/encoding?value=compress&garbage=1", .badResponse, nil),
            ("/fault/encoding?value=gzip,%20bogus", .badResponse, nil),
            // Six stacked codings: -1, "Reject response due to more than 5 content encodings", before the head.
            ("/fault/encoding?value=gzip,%20gzip,%20gzip,%20gzip,%20gzip,%20gzip", .badResponse, -1),
            // A body its coding cannot read: -1, "Error while processing content unencoding: incorrect header check".
            ("/fault/encoding?value=gzip&garbage=1", .badResponse, -1),
            ("/fault/encoding?value=deflate&garbage=1", .badResponse, -1),
            // -1, "Unrecognized or bad HTTP Content or Transfer-Encoding".
            ("/fault/encoding?value=br&garbage=1", .badResponse, -1),
        ]

        @Test(arguments: TestTransport.underTest, transportFaults)
        func faultsEndWithTheirKind(transport: TestTransport, row: FaultRow) async throws {
            let session = makeSession(transport)
            let start = ContinuousClock.now
            let error = await #expect(throws: ApiError.self) {
                try await session.perform(TransportCall<Data>(url: url(row.path)))
            }
            if transport.reportsFoundationNetworkingCodes {
                #expect(error == .transport(.init(kind: row.kind, code: row.linuxCode)), "\(row.path)")
            } else {
                guard case .transport(let failure) = error else {
                    Issue.record("\(row.path): expected a transport failure, got \(String(describing: error))")
                    return
                }
                #expect(failure.kind == row.kind, "\(row.path): \(failure)")
            }
            #expect(ContinuousClock.now - start < .seconds(10))
        }

        /// Length fields that agree are one length; codings the engine decodes are decoded, up to five
        /// stacked; a response to `HEAD` has no body to decode, whatever its coding.
        @Test(
            arguments: TestTransport.underTest,
            [
                ("/fault/conflicting-content-length?lengths=10,10", "GET", "0123456789"),
                ("/fault/conflicting-content-length?lengths=10,010", "GET", "0123456789"),
                ("/fault/encoding?value=identity", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=gzip", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=GZIP", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=x-gzip", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=deflate", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=gzip,%20identity,%20deflate", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=gzip,%20gzip,%20gzip,%20gzip,%20gzip", "GET", #"{"encoded": true}"#),
                ("/fault/encoding?value=bogus", "HEAD", ""),
            ]
        )
        func validLengthsAndCodingsAreRead(
            transport: TestTransport,
            exchange: (path: String, method: String, body: String)
        ) async throws {
            let call = TransportCall<Data>(url: url(exchange.path), httpMethod: HTTPMethod(rawValue: exchange.method))
            guard exchange.path.contains("lengths=") && !transport.acceptsRepeatedOrHugeContentLength else {
                let data = try await makeSession(transport).perform(call)
                #expect(String(decoding: data, as: UTF8.self) == exchange.body)
                return
            }
            let error = await #expect(throws: ApiError.self) { try await makeSession(transport).perform(call) }
            guard case .transport(let failure) = error else {
                Issue.record("expected a bad response, got \(String(describing: error))")
                return
            }
            #expect(failure.kind == .badResponse)
        }

        @Test(arguments: TestTransport.underTest)
        func anUntrustedCertificateIsATLSFailure(transport: TestTransport) async throws {
            let session = makeSession(transport)
            for base in [
                "https://127.0.0.1:\(server.port3)", "https://localhost:\(server.port3)",
                "https://127.0.0.1:\(server.port)",
            ] {
                let error = await #expect(throws: ApiError.self) {
                    try await session.perform(TransportCall<Data>(url: base + "/fast"))
                }
                guard case .transport(let failure) = error else {
                    Issue.record("\(base): expected a transport failure, got \(String(describing: error))")
                    continue
                }
                #expect(failure.kind == .tls, "\(base): \(failure)")
            }
        }
    }
}
