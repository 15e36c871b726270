import CoreAPI
import Foundation

/// The cases about what comes back: status, header fields and body bytes exactly, a chunked body with
/// its progress, no body for `HEAD` and `204`, and the size limit.
extension TransportConformance {
    static var responseCases: [Case] {
        [returnsTheResponseExactly, readsAChunkedBodyWithProgress, readsNoBodyForHeadOr204, holdsTheSizeLimit]
    }

    static let returnsTheResponseExactly = Case(
        "returnsTheResponseExactly",
        """
        A 201 comes back with its status, every header field and 16 KiB of every byte value, exactly. A \
        repeated name may come back apart or as one field of the values joined by commas (RFC 9110 makes \
        both the same message; URLSession joins them), in order either way.
        """
    ) { run in
        let response = try await run.perform(
            ConformanceCall<WithMetadata<Data>>(url: run.url("/respond?status=201")),
            expecting: "a 201 with a body"
        )
        try run.expect(response.status.code == 201, "the status 201", seen: "the status \(response.status.code)")
        for (name, _) in ConformanceServer.respondFields {
            let sent = ConformanceServer.respondFields.filter { $0.0 == name }.map(\.1)
            let received = response.headers.values(for: name)
            let joined = [sent.joined(separator: ", ")]
            try run.expect(
                received == sent || received == joined || received == [sent.joined(separator: ",")],
                "the response field \(name) with the values \(sent), apart or joined",
                seen: received.isEmpty ? "no such field" : "the values \(received)"
            )
        }
        try run.expect(
            response.value == Data(ConformanceServer.respondBody),
            "the body's \(ConformanceServer.respondBody.count) bytes exactly",
            seen: "\(response.value.count) bytes" + (response.value.count == 16 * 1024 ? " with other contents" : "")
        )
    }

    static let readsAChunkedBodyWithProgress = Case(
        "readsAChunkedBodyWithProgress",
        """
        A chunked body of five 20,000-byte pieces, 50 ms apart, is read whole, and download progress is \
        reported in order up to its 100,000 bytes.
        """
    ) { run in
        let progress = LockedValue<[TransferProgress]>([])
        let data = try await run.perform(
            ConformanceCall<Data>(url: run.url("/chunked?pieces=5&size=20000&ms=50")),
            expecting: "a 200 with a chunked body",
            progress: { value in progress.withLock { $0.append(value) } }
        )
        let expected = Data(ConformanceServer.pattern(count: 100_000, seed: 0))
        try run.expect(data == expected, "the 100,000 bytes exactly", seen: "\(data.count) bytes")
        let downloads = progress.withLock { $0 }.filter { $0.direction == .download }.map(\.completedBytes)
        try run.expect(
            downloads.last == 100_000 && zip(downloads, downloads.dropFirst()).allSatisfy { $0 <= $1 },
            "download progress rising to 100,000 bytes",
            seen: downloads.isEmpty ? "no download progress" : "\(downloads.count) reports ending at \(downloads.last!)"
        )
    }

    static let readsNoBodyForHeadOr204 = Case(
        "readsNoBodyForHeadOr204",
        """
        A HEAD gets the head alone, with the Content-Length the body would have; a 204 gets no body; and \
        the connection serves the next call.
        """
    ) { run in
        let head = try await run.perform(
            ConformanceCall<WithMetadata<Data>>(url: run.url("/respond?status=200"), httpMethod: .head),
            expecting: "a 200 to HEAD"
        )
        try run.expect(head.status.code == 200, "the status 200 to HEAD", seen: "the status \(head.status.code)")
        try run.expect(head.value.isEmpty, "no body for HEAD", seen: "\(head.value.count) body bytes")
        let length = "\(ConformanceServer.respondBody.count)"
        try run.expect(
            head.headers.values(for: "Content-Length") == [length],
            "Content-Length: \(length) to HEAD",
            seen: "\(head.headers.values(for: "Content-Length"))"
        )
        let empty = try await run.perform(
            ConformanceCall<WithMetadata<Data>>(url: run.url("/no-content")),
            expecting: "a 204"
        )
        try run.expect(empty.status.code == 204, "the status 204", seen: "the status \(empty.status.code)")
        try run.expect(empty.value.isEmpty, "no body for 204", seen: "\(empty.value.count) body bytes")
        let after = try await run.echo(ConformanceCall(url: run.url("/echo/after")), expecting: "a call after them")
        try run.expect(after.path == "/echo/after", "the next call answered", seen: after.path)
    }

    static let holdsTheSizeLimit = Case(
        "holdsTheSizeLimit",
        """
        With a 64 KiB size limit, a 64 KiB body is read whole, while 1 MiB — with a Content-Length or \
        chunked — ends the call with responseTooLarge(limit: 65536).
        """
    ) { run in
        let limit: Int64 = 64 * 1024
        let options = CallOptions(maximumResponseSize: limit)
        let whole = try await run.perform(
            ConformanceCall<Data>(url: run.url("/large?bytes=\(limit)"), options: options),
            expecting: "a body of exactly the limit read whole"
        )
        try run.expect(
            whole == Data(ConformanceServer.pattern(count: Int(limit), seed: 0)),
            "the \(limit) bytes exactly",
            seen: "\(whole.count) bytes"
        )
        for framing in ["length", "chunked"] {
            let what = "a 1 MiB body (\(framing) framing) over a 64 KiB limit to end with responseTooLarge"
            let (error, _) = try await run.error(
                of: ConformanceCall(url: run.url("/large?bytes=1048576&framing=\(framing)"), options: options),
                expecting: what
            )
            try run.expect(
                error == .responseTooLarge(limit: limit),
                what,
                seen: TransportConformance.Failure.describe(error)
            )
        }
    }
}
