/// A construct of the document the generator did not turn into code, and where it is.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The JSON pointer of the construct in the document, such as `#/paths/~1pets/post/callbacks`.
    public let location: String
    /// What was not generated, and what was written instead.
    public let message: String

    /// Creates a diagnostic.
    public init(location: String, message: String) {
        self.location = location
        self.message = message
    }

    /// `location: message`.
    public var description: String { "\(location): \(message)" }

    /// One JSON-pointer token: `~` as `~0` and `/` as `~1`.
    static func token(_ raw: String) -> String {
        raw.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
