import CoreAPI
import Foundation

/// The cases about what reaches the server: the request line, header fields and the body from memory, a
/// file or a stream, and twenty calls at once.
extension TransportConformance {
    static var requestCases: [Case] {
        [sendsTheRequestAsItIs, sendsAnInMemoryBody, sendsAFileBody, sendsAStreamOfUnknownLength, concurrentCalls]
    }

    /// The fields the first case sends, a repeated name among them.
    static let sentFields: [(String, String)] = [
        ("X-Conformance-One", "1"),
        ("X-Conformance-Repeated", "first"),
        ("X-Conformance-Repeated", "second"),
        ("X-Conformance-Spaces", "a value with spaces"),
    ]

    static let sendsTheRequestAsItIs = Case(
        "sendsTheRequestAsItIs",
        """
        A GET with a raw query and header fields, a repeated name among them, reaches the server as sent: \
        method, path, query byte for byte, each field's values in order, no body. Repeated names may \
        arrive apart or combined into one comma-separated field (RFC 9110 makes both the same message; \
        URLSession combines them).
        """
    ) { run in
        let query = "a=1&b=%20x%2Fy&c=&c=2&d=%C3%A9"
        var headers = Headers()
        for (name, value) in sentFields {
            headers.add(value, for: name)
        }
        let report = try await run.echo(
            ConformanceCall(url: run.url("/echo/request?" + query), headers: headers),
            expecting: "a 200 echo of the request"
        )
        try run.expect(report.method == "GET", "the method GET", seen: "\(report.method)")
        try run.expect(report.path == "/echo/request", "the path /echo/request", seen: report.path)
        try run.expect(report.query == query, "the query \(query)", seen: report.query ?? "no query")
        for name in Set(sentFields.map(\.0)) {
            let sent = sentFields.filter { $0.0 == name }.map(\.1)
            let received = report.values(of: name).flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            try run.expect(
                received == sent,
                "the field \(name) with the values \(sent)",
                seen: received.isEmpty ? "no such field" : "the values \(received)"
            )
        }
        try run.expect(report.bodyLength == 0, "no body", seen: "\(report.bodyLength) body bytes")
    }

    static let sendsAnInMemoryBody = Case(
        "sendsAnInMemoryBody",
        """
        A PATCH with 100 KiB of every byte value from memory reaches the server whole, with its \
        Content-Length and Content-Type.
        """
    ) { run in
        let bytes = ConformanceServer.pattern(count: 100 * 1024, seed: 3)
        let report = try await run.echo(
            ConformanceCall(
                url: run.url("/echo/memory"),
                httpMethod: .patch,
                body: .data(Data(bytes), contentType: "application/x-conformance")
            ),
            expecting: "a 200 echo of the body"
        )
        try run.expect(report.method == "PATCH", "the method PATCH", seen: report.method)
        try run.expectBody(of: report, bytes, "an in-memory body")
        try run.expect(
            report.values(of: "Content-Length") == ["\(bytes.count)"],
            "Content-Length: \(bytes.count)",
            seen: "\(report.values(of: "Content-Length"))"
        )
        try run.expect(
            report.values(of: "Content-Type") == ["application/x-conformance"],
            "Content-Type: application/x-conformance",
            seen: "\(report.values(of: "Content-Type"))"
        )
    }

    static let sendsAFileBody = Case(
        "sendsAFileBody",
        """
        A POST of a 3 MiB file reaches the server whole with its Content-Length, and upload progress is \
        reported in order up to the file's length.
        """
    ) { run in
        let bytes = ConformanceServer.pattern(count: 3 * 1024 * 1024, seed: 5)
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("conformance-\(UUID().uuidString).bin")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let progress = LockedValue<[TransferProgress]>([])
        let data = try await run.perform(
            ConformanceCall<Data>(url: run.url("/echo/file"), httpMethod: .post, body: .file(file)),
            expecting: "a 200 echo of the file",
            progress: { value in progress.withLock { $0.append(value) } }
        )
        guard let report = try? JSONDecoder().decode(EchoReport.self, from: data) else {
            throw run.failure(expected: "the echo's report", seen: "\(data.count) other bytes")
        }
        try run.expectBody(of: report, bytes, "a file body")
        try run.expect(
            report.values(of: "Content-Length") == ["\(bytes.count)"],
            "Content-Length: \(bytes.count)",
            seen: "\(report.values(of: "Content-Length"))"
        )
        let uploads = progress.withLock { $0 }.filter { $0.direction == .upload }.map(\.completedBytes)
        try run.expect(
            uploads.last == Int64(bytes.count) && zip(uploads, uploads.dropFirst()).allSatisfy { $0 <= $1 },
            "upload progress rising to \(bytes.count) bytes",
            seen: uploads.isEmpty ? "no upload progress" : "\(uploads.count) reports ending at \(uploads.last!)"
        )
    }

    static let sendsAStreamOfUnknownLength = Case(
        "sendsAStreamOfUnknownLength",
        """
        A PUT whose body is a stream of unknown length, 150,003 bytes in three pieces, reaches the server \
        whole: chunked, or with a Content-Length that matches once the transport has written it to a file \
        (URLSession does).
        """
    ) { run in
        let pieces = [
            ConformanceServer.pattern(count: 70_000, seed: 1), Array("-middle-".utf8),
            ConformanceServer.pattern(count: 79_995, seed: 2),
        ]
        let body = RequestBody.stream(length: nil) {
            AsyncStream<Data> { continuation in
                for piece in pieces {
                    continuation.yield(Data(piece))
                }
                continuation.finish()
            }
        }
        let report = try await run.echo(
            ConformanceCall(url: run.url("/echo/stream"), httpMethod: .put, body: body),
            expecting: "a 200 echo of the stream"
        )
        let bytes = pieces.flatMap { $0 }
        try run.expectBody(of: report, bytes, "a stream's body")
        let framed =
            report.framing == .chunked
            || (report.framing == .length && report.values(of: "Content-Length") == ["\(bytes.count)"])
        try run.expect(
            framed,
            "a chunked body, or Content-Length: \(bytes.count)",
            seen: "\(report.framing) framing with Content-Length \(report.values(of: "Content-Length"))"
        )
    }

    static let concurrentCalls = Case(
        "answersTwentyConcurrentCalls",
        "Twenty POSTs at once, each with a body of its own, each get the echo of their own request."
    ) { run in
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let bytes = ConformanceServer.pattern(count: 1000 + index * 997, seed: index)
                    let report = try await run.echo(
                        ConformanceCall(url: run.url("/echo/\(index)"), httpMethod: .post, body: .data(Data(bytes))),
                        expecting: "a 200 echo for each of twenty calls"
                    )
                    try run.expect(
                        report.path == "/echo/\(index)",
                        "call \(index) answered for its own path",
                        seen: "the answer for \(report.path)"
                    )
                    try run.expectBody(of: report, bytes, "call \(index)")
                }
            }
            try await group.waitForAll()
        }
    }
}
