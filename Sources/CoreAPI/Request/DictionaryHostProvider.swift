/// A ``HostProvider`` backed by a dictionary from host key to host.
public struct DictionaryHostProvider: HostProvider, Hashable {
    /// The hosts by key.
    public var hosts: [String: String]

    /// Creates a provider from a dictionary of hosts by key.
    public init(_ hosts: [String: String]) {
        self.hosts = hosts
    }

    /// The host for `key`.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/unknownHostKey(_:)``.
    public func host(for key: String) throws -> String {
        guard let host = hosts[key] else {
            throw ApiError.invalidRequest(.unknownHostKey(key))
        }
        return host
    }
}

extension DictionaryHostProvider: ExpressibleByDictionaryLiteral {
    /// Creates a provider from a literal of hosts by key.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
