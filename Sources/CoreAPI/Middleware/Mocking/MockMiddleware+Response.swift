public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension MockMiddleware {
    /// A canned reply of a ``MockMiddleware``.
    public struct Response: Sendable {
        private enum Body: Sendable {
            case data(Data)
            case file(URL)
        }

        private var outcome: Result<(statusCode: Int, headers: Headers, body: Body), ApiError>
        /// How long to wait before answering.
        public var delay: Duration = .zero

        private init(statusCode: Int, headers: Headers, body: Body) {
            outcome = .success((statusCode, headers, body))
        }

        private init(error: ApiError) {
            outcome = .failure(error)
        }

        /// A response with a body.
        public static func data(
            _ data: Data,
            statusCode: Int = 200,
            headers: Headers = Headers()
        ) -> MockMiddleware.Response {
            MockMiddleware.Response(statusCode: statusCode, headers: headers, body: .data(data))
        }

        /// A JSON body with `Content-Type: application/json`.
        public static func json(
            _ text: String,
            statusCode: Int = 200,
            headers: Headers = Headers()
        ) -> MockMiddleware.Response {
            var headers = headers
            if !headers.contains("Content-Type") { headers.set("application/json", for: "Content-Type") }
            return .data(Data(text.utf8), statusCode: statusCode, headers: headers)
        }

        /// A UTF-8 text body with `Content-Type: text/plain; charset=utf-8`.
        public static func text(
            _ text: String,
            statusCode: Int = 200,
            headers: Headers = Headers()
        ) -> MockMiddleware.Response {
            var headers = headers
            if !headers.contains("Content-Type") { headers.set("text/plain; charset=utf-8", for: "Content-Type") }
            return .data(Data(text.utf8), statusCode: statusCode, headers: headers)
        }

        /// A body read from a fixture file when the reply is made; its `Content-Type` is inferred from the
        /// file's extension unless given. An unreadable file fails the call with
        /// ``ApiError/InvalidRequestReason/unreadableFile(path:)``.
        public static func file(
            _ url: URL,
            statusCode: Int = 200,
            headers: Headers = Headers()
        ) -> MockMiddleware.Response {
            var headers = headers
            if !headers.contains("Content-Type") {
                headers.set(Attachment.mimeType(forFilename: url.lastPathComponent), for: "Content-Type")
            }
            return MockMiddleware.Response(statusCode: statusCode, headers: headers, body: .file(url))
        }

        /// A status code without a body.
        public static func status(_ statusCode: Int, headers: Headers = Headers()) -> MockMiddleware.Response {
            .data(Data(), statusCode: statusCode, headers: headers)
        }

        /// A failure instead of a response, such as `.timeout` or `.transport(.init(kind: .offline))`.
        public static func failure(_ error: ApiError) -> MockMiddleware.Response {
            MockMiddleware.Response(error: error)
        }

        /// This reply, answered after `delay`.
        public func delayed(by delay: Duration) -> MockMiddleware.Response {
            var copy = self
            copy.delay = delay
            return copy
        }

        func makeResponse(for request: ApiRequest) async throws -> RawResponse {
            if delay > .zero {
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw ApiError.cancelled
                }
            }
            let (statusCode, headers, body) = try outcome.get()
            let url = request.url
            switch body {
            case .data(let data):
                return try RawResponse(url: url, statusCode: statusCode, headers: headers, data: data)
            case .file(let file):
                guard let data = try? Data(contentsOf: file) else {
                    throw ApiError.invalidRequest(.unreadableFile(path: file.path))
                }
                return try RawResponse(url: url, statusCode: statusCode, headers: headers, data: data)
            }
        }
    }
}
