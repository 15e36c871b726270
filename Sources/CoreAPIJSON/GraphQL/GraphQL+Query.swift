public import CoreAPI
public import Foundation

extension GraphQL {
    /// The text of a GraphQL document: a literal, a file, or a resource of a bundle.
    ///
    /// A file or resource is read when the request is built; one that cannot be read fails the call with
    /// `ApiError.invalidRequest(.unreadableFile(path:))` and nothing is sent.
    public struct Query: Sendable, Hashable, ExpressibleByStringLiteral {
        /// Where the text comes from.
        private enum Source: Sendable, Hashable {
            case text(String)
            case file(URL)
            case missingResource(String)
        }

        private let source: Source

        private init(_ source: Source) {
            self.source = source
        }

        /// The document as written in the source code.
        public init(stringLiteral text: String) {
            self.init(.text(text))
        }

        /// The document `text`.
        public static func text(_ text: String) -> GraphQL.Query {
            GraphQL.Query(.text(text))
        }

        /// The document in the UTF-8 file at `url`.
        public static func file(_ url: URL) -> GraphQL.Query {
            GraphQL.Query(.file(url))
        }

        /// The document in the resource `name` with `fileExtension` of `bundle`.
        public static func resource(
            _ name: String,
            withExtension fileExtension: String = "graphql",
            in bundle: Bundle
        )
            -> GraphQL.Query
        {
            guard let url = bundle.url(forResource: name, withExtension: fileExtension) else {
                return GraphQL.Query(.missingResource("\(name).\(fileExtension)"))
            }
            return GraphQL.Query(.file(url))
        }

        /// The text of the document.
        /// - Throws: `ApiError.invalidRequest(.unreadableFile(path:))` for a file or resource that cannot
        ///   be read as UTF-8 text.
        public func read() throws(ApiError) -> String {
            switch source {
            case .text(let text):
                return text
            case .file(let url):
                guard let data = FileManager.default.contents(atPath: url.path),
                    let text = String(data: data, encoding: .utf8)
                else {
                    throw ApiError.invalidRequest(.unreadableFile(path: url.path))
                }
                return text
            case .missingResource(let name):
                throw ApiError.invalidRequest(.unreadableFile(path: name))
            }
        }
    }
}
