/// Why an envelope could not be opened.
public enum JSONEnvelopeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key at the end of `path` is missing.
    case missingKey(path: String)
    /// The value at `path` (empty: the body) is not an object, so the next key cannot be read.
    case notAnObject(path: String)
    /// A single-key envelope found these keys (sorted) instead of exactly one.
    case notASingleKey(keys: [String])

    /// A one-line description naming the path or the keys found.
    public var description: String {
        switch self {
        case .missingKey(let path): "the envelope has no key \(path.debugDescription)"
        case .notAnObject(let path):
            path.isEmpty
                ? "the body is not an object" : "the envelope value at \(path.debugDescription) is not an object"
        case .notASingleKey(let keys): "the envelope has \(keys.count) keys \(keys) instead of one"
        }
    }
}
