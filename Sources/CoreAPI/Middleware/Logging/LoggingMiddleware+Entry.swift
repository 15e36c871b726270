import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension LoggingMiddleware {
    /// The records of one request passing the middleware, and the secret values seen so far, so a value
    /// revealed in one place (a request's token) is hidden wherever it shows up later (an echoing
    /// response).
    struct Entry {
        let request: ApiRequest
        let redaction: Secrets.Redaction
        let methodName: String
        let attempt: Int
        let httpMethod: String
        /// The redacted URL, not yet scrubbed.
        let url: String
        private var secrets: Set<String>

        /// - Parameter redaction: The middleware's own; the session's ``SessionPolicy/secrets`` are
        ///   hidden too, so a name configured once is redacted everywhere.
        init(request: ApiRequest, context: MiddlewareContext, redaction: Secrets.Redaction) {
            let redaction = redaction.hiding(context.session.policy.secrets)
            self.request = request
            self.redaction = redaction
            self.methodName = context.methodName
            self.attempt = context.attempt
            self.httpMethod = request.method.rawValue
            var secrets = redaction.headerSecrets(of: request)
            self.url = redaction.redactURL(request.url.absoluteString, collecting: &secrets)
            self.secrets = secrets
        }

        /// `MethodName` or `MethodName, attempt 2`, then `extra`.
        private func context(_ extra: [String]) -> String {
            ([methodName] + (attempt > 1 ? ["attempt \(attempt)"] : []) + extra).joined(separator: ", ")
        }

        mutating func requestRecord(details: Bool, maximumBodyLength: Int) -> Record {
            let length = request.body.data?.count ?? CurlCommand.bodyLength(of: request)
            var size: [String] = []
            if let length, length > 0 {
                size = ["\(length)-byte body"]
            }
            let summary = "--> \(httpMethod) \(url) (\(context(size)))"
            var sections: [[String]] = []
            if details {
                sections.append(lines(of: CurlCommand.sortedFields(of: request)))
                let body = CurlCommand.renderedBody(of: request, redaction: redaction, collecting: &secrets)
                sections.append(lines(of: body, size: length ?? 0, maximumBodyLength: maximumBodyLength))
                sections.append(["$ " + CurlCommand(request, redaction: redaction).description])
            }
            return record(.info, .request, summary: summary, sections: sections)
        }

        mutating func responseRecord(
            _ response: RawResponse,
            isAcceptable: Bool,
            elapsed: Duration,
            details: Bool,
            maximumBodyLength: Int
        ) -> Record {
            let extra = ["\(Self.milliseconds(elapsed)) ms", "\(response.data.count)-byte body"]
            let summary = "<-- \(response.statusCode) \(httpMethod) \(url) (\(context(extra)))"
            var sections: [[String]] = []
            if details {
                let headers = response.headers
                sections.append(lines(of: headers))
                let body = redaction.render(
                    response.data,
                    length: nil,
                    contentType: headers["Content-Type"],
                    collecting: &secrets
                )
                sections.append(lines(of: body, size: response.data.count, maximumBodyLength: maximumBodyLength))
            }
            var record = self.record(isAcceptable ? .info : .error, .response, summary: summary, sections: sections)
            record.statusCode = response.statusCode
            record.duration = elapsed
            if !isAcceptable {
                record.failureCategory = response.statusCode == 401 ? .unauthorized : .status
            }
            return record
        }

        func failureRecord(_ error: any Error, elapsed: Duration) -> Record {
            let time = context(["\(Self.milliseconds(elapsed)) ms"])
            var record: Record
            if error is CancellationError || (error as? ApiError) == .cancelled {
                record = self.record(
                    .info,
                    .failure,
                    summary: "<-- cancelled \(httpMethod) \(url) (\(time))",
                    sections: []
                )
            } else {
                // Only CoreAPI's own descriptions are known to leave secrets out.
                let reason = (error as? ApiError)?.description ?? "an error of type \(type(of: error))"
                record = self.record(
                    .error,
                    .failure,
                    summary: "<-- failed \(httpMethod) \(url) (\(time)): \(reason)",
                    sections: []
                )
            }
            record.duration = elapsed
            record.failureCategory = ApiError.Category(error)
            return record
        }

        /// Whole milliseconds of `duration`.
        private static func milliseconds(_ duration: Duration) -> Int64 {
            duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        }

        /// The redacted fields as `Name: value` lines, adding secret values found.
        private mutating func lines(of headers: Headers) -> [String] {
            redaction.redact(headers, collecting: &secrets).map { "\($0.name): \($0.value)" }
        }

        /// The body's lines: its text scrubbed, then cut to `maximumBodyLength` UTF-8 bytes.
        private func lines(of body: Secrets.Redaction.RenderedBody, size: Int, maximumBodyLength: Int) -> [String] {
            switch body {
            case .empty:
                return []
            case .opaque(let description):
                return ["<\(description)>"]
            case .text(let text):
                let scrubbed = Secrets.Redaction.scrub(text, removing: secrets)
                let shown = Self.prefix(of: scrubbed, utf8Length: maximumBodyLength)
                let note = shown.utf8.count < scrubbed.utf8.count ? "… <truncated, \(size) bytes in total>" : ""
                return (shown + note).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(
                    String.init
                )
            }
        }

        /// The longest prefix of whole characters of `text` with at most `utf8Length` UTF-8 bytes.
        private static func prefix(of text: String, utf8Length: Int) -> String {
            guard text.utf8.count > utf8Length else { return text }
            var length = 0
            var end = text.startIndex
            for index in text.indices {
                length += text[index].utf8.count
                if length > utf8Length { break }
                end = text.index(after: index)
            }
            return String(text[..<end])
        }

        /// A record of `summary` and the non-empty sections, indented and separated by blank lines, with
        /// every secret value seen so far hidden.
        private func record(_ level: Level, _ event: Record.Event, summary: String, sections: [[String]]) -> Record {
            var lines = [summary]
            for section in sections where !section.isEmpty {
                if lines.count > 1 { lines.append("") }
                lines += section.map { $0.isEmpty ? "" : "    " + $0 }
            }
            let message = Secrets.Redaction.scrub(lines.joined(separator: "\n"), removing: secrets)
            var record = Record(level: level, event: event, methodName: methodName, attempt: attempt, message: message)
            record.httpMethod = httpMethod
            record.url = Secrets.Redaction.scrub(url, removing: secrets)
            return record
        }
    }
}
