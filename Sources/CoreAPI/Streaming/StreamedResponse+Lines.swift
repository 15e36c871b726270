import Foundation

extension StreamedResponse {
    /// The lines of a streamed body as text, each as soon as its end has arrived (see
    /// ``StreamedResponse/lines``). A line ends at LF, CR or CRLF; invalid UTF-8 is replaced with U+FFFD. A
    /// last line without an end is delivered when the body ends.
    public struct Lines: AsyncSequence, Sendable {
        /// A line, without its end.
        public typealias Element = String

        private let body: StreamedResponse.Body

        /// The lines of `body`.
        public init(_ body: StreamedResponse.Body) {
            self.body = body
        }

        /// Reads the lines in order.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var pieces: StreamedResponse.Body.AsyncIterator
            var splitter = LineSplitter()
            var ready: [String] = []
            var isFinished = false

            /// The next line, or `nil` at the end of the body.
            /// - Throws: ``ApiError`` when the exchange failed before the body ended.
            public mutating func next() async throws -> String? {
                while ready.isEmpty {
                    if isFinished { return nil }
                    guard let piece = try await pieces.next() else {
                        isFinished = true
                        if let last = splitter.finish() {
                            return String(decoding: last, as: UTF8.self)
                        }
                        return nil
                    }
                    splitter.append(piece) { ready.append(String(decoding: $0, as: UTF8.self)) }
                }
                return ready.removeFirst()
            }
        }

        /// Starts reading.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(pieces: body.makeAsyncIterator())
        }
    }
}
