import CoreAPI
import Foundation

extension Cassette.Player {
    /// An entry checked and read once, when the player is made: its request for matching, and its
    /// response's parts.
    struct Prepared: Sendable {
        /// The entry's number in the file, from 0.
        let index: Int
        /// The entry's request, redacted.
        let request: Cassette.Archive.Request
        let status: Int
        let statusText: String
        /// The response's fields, without pseudo-header fields.
        let fields: [Cassette.Archive.Field]
        /// The response body's bytes; `nil` when only a digest was kept.
        let body: Data?
        let chunkSizes: [Int]?
        /// `#<number> <method> <path>`.
        let summary: String

        /// Checks and reads `entry`.
        /// - Throws: ``Cassette/Failure/unusableEntry(index:reason:)`` with the first reason it cannot be
        ///   replayed.
        init(index: Int, entry: Cassette.Archive.Entry) throws {
            let fail = { (reason: String) in Cassette.Failure.unusableEntry(index: index, reason: reason) }
            let request = entry.request
            guard !request.method.isEmpty, (try? HTTPMethod(validating: request.method)) != nil else {
                throw fail("the request's method \"\(request.method)\" is not an HTTP method")
            }
            guard let url = URLComponents(string: request.url), url.scheme != nil, url.host != nil else {
                throw fail("the request's URL \"\(request.url)\" is not an absolute URL")
            }
            guard (100...999).contains(entry.response.status) else {
                throw fail("the response's status \(entry.response.status) is not an HTTP status")
            }
            do {
                _ = try request.bodyData()
                body = try entry.response.content.bodyData()
            } catch {
                throw fail(error.reason)
            }
            self.index = index
            self.request = request
            status = entry.response.status
            statusText = entry.response.statusText
            fields = entry.response.headers.filter { !$0.name.hasPrefix(":") }
            chunkSizes = entry.response.content.chunkSizes
            summary = "#\(index) \(request.method) \(url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath)"
        }

        /// The response's header fields as the session would have received them with the decoded `body`:
        /// no `Content-Encoding` or `Transfer-Encoding`, a `Content-Length` that fits, and a `Location` on
        /// the recorded origin moved to the origin the request went to.
        func headers(for body: Data, method: HTTPMethod, sentTo url: URL) -> Headers {
            let dropped: Set<String> = ["content-encoding", "transfer-encoding", "content-length"]
            var headers = Headers(
                fields.filter { !dropped.contains($0.name.lowercased()) }.map { field in
                    guard field.name.lowercased() == "location" else {
                        return Headers.Field(name: field.name, value: field.value)
                    }
                    return Headers.Field(name: field.name, value: moved(field.value, to: url))
                }
            )
            let declared = fields.first { $0.name.lowercased() == "content-length" }
            if !body.isEmpty || declared != nil {
                let bodiless = method == .head || status == 204 || status == 304
                let length = bodiless ? declared?.value ?? "0" : String(body.count)
                if !(status == 204 && length == "0") {
                    headers.add(length, for: declared?.name ?? "Content-Length")
                }
            }
            return headers
        }

        /// `location` on the recorded request's origin, moved to `url`'s origin; any other as it is.
        private func moved(_ location: String, to url: URL) -> String {
            guard var target = URLComponents(string: location), target.host != nil,
                let recorded = URLComponents(string: request.url),
                target.scheme == recorded.scheme, target.host == recorded.host, target.port == recorded.port,
                let sent = URLComponents(url: url, resolvingAgainstBaseURL: false)
            else { return location }
            (target.scheme, target.host, target.port) = (sent.scheme, sent.host, sent.port)
            return target.string ?? location
        }

        /// `body` in pieces of the recorded sizes, when they add up to its length; else in 16 KiB pieces.
        func pieces(of body: Data) -> [Data] {
            var sizes = chunkSizes ?? []
            if sizes.reduce(0, +) != body.count || sizes.contains(where: { $0 <= 0 }) {
                sizes = stride(from: 0, to: body.count, by: 16 * 1024).map { min(16 * 1024, body.count - $0) }
            }
            var pieces: [Data] = []
            var offset = body.startIndex
            for size in sizes {
                pieces.append(body[offset..<offset + size])
                offset += size
            }
            return pieces
        }
    }
}
