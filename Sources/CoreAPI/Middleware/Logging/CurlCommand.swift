#if canImport(FoundationNetworking)
    import Foundation
    import FoundationNetworking
#else
    public import Foundation
#endif

/// The `curl` command line of a request: see ``ApiRequest/curlCommand(redaction:maximumBodyLength:)``.
package struct CurlCommand: Sendable, Hashable, CustomStringConvertible {
    /// The command line.
    package let description: String

    /// Renders `request` as a command line.
    /// - Parameters:
    ///   - request: The request to repeat.
    ///   - redaction: What to hide; ``Secrets/Redaction/init(secretHeaderNames:secretParameterKeys:includesDefaultParameterKeys:)``
    ///     with its defaults unless given.
    ///   - maximumBodyLength: The longest text body, in UTF-8 bytes, that is written into the command;
    ///     64 KiB by default.
    package init(
        _ request: ApiRequest,
        redaction: Secrets.Redaction = Secrets.Redaction(),
        maximumBodyLength: Int = 64 * 1024
    ) {
        var secrets = redaction.headerSecrets(of: request)
        var arguments: [String] = []
        let method = request.method.rawValue
        if method == "HEAD" {
            arguments.append("--head")
        } else {
            arguments += ["-X", Self.quotedIfNeeded(method)]
        }
        let url = redaction.redactURL(request.url.absoluteString, collecting: &secrets)
        let fields = Self.sortedFields(of: request)
        let headers = redaction.redact(fields, collecting: &secrets)
        let body = Self.renderedBody(of: request, redaction: redaction, collecting: &secrets)
        arguments.append(Self.quoted(Secrets.Redaction.scrub(url, removing: secrets)))
        for field in headers {
            // curl drops a header given as `Name:`; `Name;` sends it with an empty value.
            let header = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
            arguments += ["-H", Self.quoted(Secrets.Redaction.scrub(header, removing: secrets))]
        }
        switch body {
        case .empty:
            break
        case .text(let text) where text.utf8.count <= maximumBodyLength:
            arguments += [text.hasPrefix("@") ? "--data-raw" : "--data-binary"]
            arguments.append(Self.quoted(Secrets.Redaction.scrub(text, removing: secrets)))
        case .text(let text):
            let size = request.body.data?.count ?? text.utf8.count
            let type = request.headers["Content-Type"].map { ", " + Secrets.Redaction.essence(of: $0) } ?? ""
            arguments += ["--data-binary", "@-", "# \(size) bytes\(type), longer than \(maximumBodyLength) bytes"]
        case .opaque(let description):
            arguments += ["--data-binary", "@-", "# \(description)"]
        }
        description = (["curl"] + arguments).joined(separator: " ")
    }

    /// `request`'s body as logs and the command show it: redacted, or a placeholder for a body not in
    /// memory; the secrets it holds are added to `secrets`.
    static func renderedBody(
        of request: ApiRequest,
        redaction: Secrets.Redaction,
        collecting secrets: inout Set<String>
    ) -> Secrets.Redaction.RenderedBody {
        if let stream = request.body.stream {
            return streamPlaceholder(stream)
        }
        return redaction.render(
            request.body.data,
            length: bodyLength(of: request),
            contentType: request.headers["Content-Type"],
            collecting: &secrets
        )
    }

    /// The length of a body not in memory: its file's, a stream's declared one, or the `Content-Length`
    /// of one still to be written.
    static func bodyLength(of request: ApiRequest) -> Int? {
        switch request.body {
        case .data: nil
        case .file(let file): Int(exactly: file.length)
        case .stream(let stream): stream.length.flatMap { Int(exactly: $0) }
        case .none: request.headers["Content-Length"].flatMap { Int($0) }
        }
    }

    /// What stands for a streamed body, which is never read to be shown: `streamed body`, with its
    /// declared length when it has one (a log shows it as `<streamed body, 11 bytes>`).
    static func streamPlaceholder(_ stream: ApiRequest.Stream) -> Secrets.Redaction.RenderedBody {
        .opaque(stream.length.map { "streamed body, \($0) bytes" } ?? "streamed body")
    }

    /// The request's header fields sorted by name, ignoring case.
    static func sortedFields(of request: ApiRequest) -> Headers {
        Headers(request.headers.fields.sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) })
    }

    /// `text` in single quotes for a POSIX shell.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// `text` as it is when it has only letters, digits, `-`, `_` and `.`; quoted otherwise.
    private static func quotedIfNeeded(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            }
        return plain ? text : quoted(text)
    }
}

extension ApiRequest {
    /// A `curl` command line that repeats the request, with secrets redacted, for logs and bug reports.
    ///
    /// The command is one line: the method (`-X POST`, or `--head` for `HEAD`), the URL, the header fields
    /// sorted by name (ignoring case), then the body. Every argument is single-quoted for POSIX shells, a
    /// `'` inside written as `'\''`. Secrets are hidden by a ``Secrets/Redaction``: secret header values, secret
    /// query and body parameters and URL user information print as `<redacted>`, and so does any other
    /// occurrence of those values.
    ///
    /// The body is included as `--data-binary '…'` when it is text (JSON and form bodies redacted, see
    /// ``Secrets/Redaction/redact(_:contentType:)``) of at most `maximumBodyLength` UTF-8 bytes; text starting with
    /// `@` uses `--data-raw` so curl does not read a file. Any other body — binary, multipart, unparseable
    /// JSON, too long, or not in memory (uploaded from a file or stream) — is `--data-binary @-` followed by
    /// a shell comment with its size and type, so the command runs but reads the body from standard input.
    ///
    /// ```swift
    /// print(request.curlCommand())
    /// // curl -X POST 'https://api.example.com/login' -H 'Content-Type: application/json' --data-binary '{"password":"<redacted>","user":"ada"}'
    /// ```
    ///
    /// - Parameters:
    ///   - redaction: What to hide; ``Secrets/Redaction/init(secretHeaderNames:secretParameterKeys:includesDefaultParameterKeys:)``
    ///     with its defaults unless given.
    ///   - maximumBodyLength: The longest text body, in UTF-8 bytes, that is written into the command;
    ///     64 KiB by default.
    public func curlCommand(
        redaction: Secrets.Redaction = Secrets.Redaction(),
        maximumBodyLength: Int = 64 * 1024
    ) -> String {
        CurlCommand(self, redaction: redaction, maximumBodyLength: maximumBodyLength).description
    }
}
