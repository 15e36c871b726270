/// Supplies the host for each host key an ``ApiMethod`` names.
///
/// A host is a scheme, host and optional port and base path, for example `https://api.example.com/v2`.
/// A host without a scheme fails the call before anything is sent. Swapping the provider moves every method to another
/// environment or to a test server at once.
public protocol HostProvider: Sendable {
    /// The host for `key`.
    /// - Throws: an error, usually ``ApiError/invalidRequest(_:)`` with
    ///   ``ApiError/InvalidRequestReason/unknownHostKey(_:)``, when the key is unknown. The request is then
    ///   not sent.
    func host(for key: String) throws -> String
}
