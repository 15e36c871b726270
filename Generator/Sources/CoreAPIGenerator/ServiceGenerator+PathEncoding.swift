extension ServiceGenerator {
    /// The family's `segment(_:)`, which percent-encodes a path parameter's value as one segment, and
    /// `encodedURL(host:path:queryItems:)`, which puts such a path below the host without encoding it again.
    func writePathEncoding(to writer: inout SourceWriter) {
        writePercentEncoder(
            "segment",
            keeping: "-._~!$&'()*+,;=:@",
            doc: "`value` as one path segment: every byte but letters, digits and `-._~!$&'()*+,;=:@` percent-encoded,"
                + " so a `/`, `?`, `#` or `%` in a value stays in its segment (`a/b` is sent as `a%2Fb`).",
            to: &writer
        )
        writer.line()
        writer.doc(
            "The URL of `path`, whose values `segment(_:)` encoded, below `host`, with `queryItems`: the host is"
                + " checked and its base path kept as for any other method's path, and the path is not encoded"
                + " again.\n"
                + "- Throws: `ApiError.invalidRequest` for a host that is not an `http` or `https` URL, or a path"
                + " with a `.` or `..` segment."
        )
        writer.line(
            "static func encodedURL(host: String, path: String, queryItems: [URLQueryItem] = []) throws -> URLInfo {"
        )
        writer.line("    if path.split(separator: \"/\").contains(where: { $0 == \".\" || $0 == \"..\" }) {")
        writer.line(
            "        throw ApiError.invalidRequest(.invalidURL(\"the path must not contain \\\".\\\" or \\\"..\\\""
                + " segments\"))"
        )
        writer.line("    }")
        let badURL =
            "        throw ApiError.invalidRequest(.invalidURL(\"could not build a URL below \\(host.debugDescription)\"))"
        writer.line("    let base = try URLInfo.components(host: host, path: \"\", queryItems: queryItems).makeURL()")
        writer.line("    guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {")
        writer.line(badURL)
        writer.line("    }")
        writer.line("    components.percentEncodedPath += path")
        writer.line("    guard let url = components.url else {")
        writer.line(badURL)
        writer.line("    }")
        writer.line("    return .url(url)")
        writer.line("}")
    }

    /// A family function `static func <name>(_ value: String) -> String` that percent-encodes every byte of
    /// `value` but ASCII letters, digits and `kept`.
    func writePercentEncoder(_ name: String, keeping kept: String, doc: String, to writer: inout SourceWriter) {
        writer.line()
        writer.doc(doc)
        writer.block("static func \(name)(_ value: String) -> String") { writer in
            let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
            writer.line("let kept = CharacterSet(")
            writer.line("    charactersIn: \"\(letters)\(kept)\"")
            writer.line(")")
            writer.line("return value.addingPercentEncoding(withAllowedCharacters: kept) ?? value")
        }
    }
}
