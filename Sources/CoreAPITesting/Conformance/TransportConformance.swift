import CoreAPI

/// The cases every ``/CoreAPI/Transport`` passes, for a transport of your own to run in its own tests.
///
/// Each ``Case`` starts an HTTP/1.1 server of its own on 127.0.0.1 — two listeners on ports the system
/// picks, two origins — makes an ``/CoreAPI/ApiSession`` over the transport you give it, and holds the
/// calls to the contract as a session sees it: bytes both ways, the response collector's rules, time
/// (idle timeout, deadline, cancellation), the kinds of transport failures, redirects and their secrets,
/// and concurrent calls. It stops its server when it ends, leaving no thread or socket behind, and throws
/// a ``Failure`` that says what was expected and what was seen — never the value of a secret field.
///
/// A test runs every case over the transport it makes — with Swift Testing, one test with
/// `@Test(arguments: TransportConformance.cases)` and a time limit (see “Writing a Transport” in
/// CoreAPI's documentation); from XCTest, or anywhere else, a loop:
///
/// ```swift
/// import CoreAPI
/// import CoreAPITesting
///
/// func checkConformance() async throws {
///     for conformanceCase in TransportConformance.cases {
///         try await conformanceCase.run { URLSessionTransport() }
///     }
/// }
/// ```
///
/// Where CoreAPI's own engines are documented to differ, a case accepts each of their behaviours and its
/// ``Case/summary`` says so: repeated header names may travel apart or as one field of the values joined
/// by commas, both ways (URLSession joins them), and a stream of unknown length may be sent chunked or
/// with its length once it has been written to a file (URLSession does the latter).
public enum TransportConformance {
    /// Every case, in a stable order.
    public static var cases: [Case] {
        requestCases + responseCases + timeCases + faultCases + redirectCases
    }

    /// How long a case waits for a call that the transport should end — on an idle timeout, at a
    /// deadline or on a cancel — before it fails: far less than the server's own 30 seconds of
    /// silence, and far more than a transport that ends on time needs.
    public static let patience: Duration = .seconds(10)

    /// The name of the header field the cases' sessions treat as a secret, besides `Authorization`,
    /// `Cookie` and `Proxy-Authorization`.
    public static let secretHeaderName = "X-Conformance-Secret"
}
