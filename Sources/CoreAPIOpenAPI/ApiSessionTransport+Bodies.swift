#if OpenAPI
    import CoreAPI
    import CoreAPIHTTPTypes
    import Foundation
    import HTTPTypes
    import OpenAPIRuntime

    extension ApiSessionTransport {
        /// The error a request body of `.single` iteration is the cause of when an attempt would send it
        /// again — a retry, a `307` or `308` redirect, a token refresh: its bytes were read by the attempt
        /// before, and sending none would be wrong. The call fails with
        /// ``/CoreAPI/ApiError/invalidRequest(_:)`` and ``/CoreAPI/ApiError/InvalidRequestReason/bodyStreamFailed(_:)``,
        /// whose cause is this error. Give the `HTTPBody` `.multiple` iteration for a request that may be
        /// sent more than once.
        public struct BodyNotReplayable: Error, Hashable, CustomStringConvertible {
            /// Creates the error.
            public init() {}

            /// What happened and what to do.
            public var description: String {
                "a request body of single iteration cannot be sent again; give the HTTPBody .multiple iteration"
            }
        }

        /// `body` as the session sends it: none, the bytes of a small body that may be read again, or a
        /// stream.
        static func requestBody(_ body: HTTPBody?, inMemoryLimit: Int64) async throws -> ApiRequest.Body {
            guard let body else { return .none }
            var length: Int64?
            if case .known(let known) = body.length {
                length = known
            }
            if body.iterationBehavior == .multiple, let length, length <= inMemoryLimit {
                var data = Data(capacity: Int(length))
                for try await chunk in body {
                    data.append(contentsOf: chunk)
                }
                return .data(data)
            }
            let gate = BodyGate(replayable: body.iterationBehavior == .multiple)
            return .stream(ApiRequest.Stream(length: length) { RequestChunks(body: body, isRefused: !gate.open()) })
        }

        /// The body of `response` as swift-openapi's body, read as it arrives, with the declared length
        /// when the body is sent as it is (no content coding).
        static func responseBody(_ response: StreamedResponse) -> HTTPBody {
            var length = HTTPBody.Length.unknown
            let coding = response.headers["Content-Encoding"]?.lowercased()
            if coding == nil || coding == "identity",
                let text = response.headers["Content-Length"], let declared = Int64(text), declared >= 0
            {
                length = .known(declared)
            }
            return HTTPBody(ResponseChunks(body: response.body), length: length, iterationBehavior: .single)
        }
    }

    /// Whether a request body may be read once more: always for one of `.multiple` iteration, only the
    /// first time otherwise.
    private final class BodyGate: @unchecked Sendable {  // `wasRead` is only read and written under `lock`
        private let replayable: Bool
        private let lock = NSLock()
        private var wasRead = false

        init(replayable: Bool) {
            self.replayable = replayable
        }

        /// Whether this reading may go on; marks the body read.
        func open() -> Bool {
            lock.withLock {
                defer { wasRead = true }
                return replayable || !wasRead
            }
        }
    }

    /// The chunks of a request `HTTPBody` as the session reads them, or the refusal of a reading too many.
    private struct RequestChunks: AsyncSequence, Sendable {
        typealias Element = Data

        let body: HTTPBody
        let isRefused: Bool

        func makeAsyncIterator() -> Iterator {
            Iterator(base: isRefused ? nil : body.makeAsyncIterator())
        }

        struct Iterator: AsyncIteratorProtocol {
            var base: HTTPBody.Iterator?

            mutating func next() async throws -> Data? {
                guard base != nil else {
                    throw ApiSessionTransport.BodyNotReplayable()
                }
                return try await base?.next().map { Data($0) }
            }
        }
    }

    /// The pieces of a streamed response body as swift-openapi's chunks.
    private struct ResponseChunks: AsyncSequence, Sendable {
        typealias Element = HTTPBody.ByteChunk

        let body: StreamedResponse.Body

        func makeAsyncIterator() -> Iterator {
            Iterator(base: body.makeAsyncIterator())
        }

        struct Iterator: AsyncIteratorProtocol {
            var base: StreamedResponse.Body.AsyncIterator

            mutating func next() async throws -> HTTPBody.ByteChunk? {
                try await base.next().map { HTTPBody.ByteChunk($0) }
            }
        }
    }
#endif
