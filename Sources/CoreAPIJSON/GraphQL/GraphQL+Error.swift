extension GraphQL {
    /// One entry of the `errors` array of a GraphQL response.
    public struct Error: Sendable, Hashable, Decodable, CustomStringConvertible {
        /// A step of the path to the field that failed: an object key or a list index.
        public enum PathElement: Sendable, Hashable, Decodable, CustomStringConvertible {
            /// A field name.
            case key(String)
            /// A position in a list.
            case index(Int)

            /// Decodes a string as a key and an integer as an index.
            public init(from decoder: any Decoder) throws {
                let single = try decoder.singleValueContainer()
                if let index = try? single.decode(Int.self) {
                    self = .index(index)
                } else {
                    self = .key(try single.decode(String.self))
                }
            }

            /// The key, or the index in brackets.
            public var description: String {
                switch self {
                case .key(let key): key
                case .index(let index): "[\(index)]"
                }
            }
        }

        /// A position in the document.
        public struct Location: Sendable, Hashable, Decodable {
            /// The line, from 1.
            public let line: Int
            /// The column, from 1.
            public let column: Int

            /// A position.
            public init(line: Int, column: Int) {
                self.line = line
                self.column = column
            }
        }

        /// The server's message.
        public let message: String
        /// The path to the field that failed; empty when the error is not about a field.
        public let path: [PathElement]
        /// Where in the document the error is.
        public let locations: [Location]
        /// Anything else the server says, such as an error code.
        public let extensions: JSONValue?

        private enum CodingKeys: String, CodingKey { case message, path, locations, extensions }

        /// Decodes an error; a missing `path` or `locations` is empty.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try container.decode(String.self, forKey: .message)
            path = try container.decodeIfPresent([PathElement].self, forKey: .path) ?? []
            locations = try container.decodeIfPresent([Location].self, forKey: .locations) ?? []
            extensions = try container.decodeIfPresent(JSONValue.self, forKey: .extensions)
        }

        /// Creates an error, for tests and for errors a module makes itself.
        public init(message: String, path: [PathElement] = [], locations: [Location] = [], extensions: JSONValue? = nil)
        {
            self.message = message
            self.path = path
            self.locations = locations
            self.extensions = extensions
        }

        /// The message, after the dotted path when there is one: `hero.friends[1].name: not found`.
        public var description: String {
            guard !path.isEmpty else { return message }
            var text = ""
            for element in path {
                if case .key = element, !text.isEmpty { text += "." }
                text += element.description
            }
            return "\(text): \(message)"
        }
    }
}
