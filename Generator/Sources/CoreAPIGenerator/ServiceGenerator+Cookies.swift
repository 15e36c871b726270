extension ServiceGenerator {
    /// The family's `cookieValue(_:)`, which percent-encodes a cookie parameter's value where a cookie value
    /// cannot carry a byte as it is (RFC 6265's cookie-octet: no space, `"`, `,`, `;` or `\`, nothing beyond
    /// ASCII), so a value can never end its cookie or start another.
    func writeCookieEncoding(to writer: inout SourceWriter) {
        writePercentEncoder(
            "cookieValue",
            keeping: "!#$&'()*+-./:<=>?@[]^_`{|}~",
            doc: "`value` as a cookie value: every byte but letters, digits and `!#$&'()*+-./:<=>?@[]^_`{|}~`"
                + " percent-encoded, so a `;`, `,`, space or quote cannot end the cookie or start another.",
            to: &writer
        )
    }
}
