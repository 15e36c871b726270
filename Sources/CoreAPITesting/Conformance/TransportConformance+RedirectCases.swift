import CoreAPI
import Foundation

/// The cases about redirects, which the session follows above the transport: the transport returns each
/// `3xx`, and secrets reach the target only on the same origin.
extension TransportConformance {
    static var redirectCases: [Case] {
        [followsRedirectsWithSecretsOnTheSameOrigin, dropsSecretsAcrossOrigins]
    }

    /// The fields the redirect cases send: three secrets and a plain field. Only names ever appear in a
    /// failure.
    static let redirectFields: Headers = [
        "Authorization": "Bearer conformance-token",
        "Cookie": "session=conformance-cookie",
        secretHeaderName: "conformance-secret",
        "X-Conformance-Plain": "visible",
    ]

    static let followsRedirectsWithSecretsOnTheSameOrigin = Case(
        "followsRedirectsWithSecretsOnTheSameOrigin",
        """
        A 302 after a GET and a 307 after a POST to the same origin are followed: the target gets every \
        field — Authorization and the session's secret field included — and, after the 307, the same body.
        """
    ) { run in
        try await checkRedirects(run, otherOrigin: false)
    }

    static let dropsSecretsAcrossOrigins = Case(
        "dropsSecretsAcrossOrigins",
        """
        A 302 after a GET and a 307 after a POST to another origin (another port) are followed: the \
        target gets the plain field, and after the 307 the same body, but no Authorization, Cookie or \
        secret field.
        """
    ) { run in
        try await checkRedirects(run, otherOrigin: true)
    }

    /// Follows a 302 (GET) and a 307 (POST with a body) to the echo of the first origin or the other, and
    /// checks which fields arrived.
    private static func checkRedirects(_ run: ConformanceRun, otherOrigin: Bool) async throws {
        let to = otherOrigin ? "other" : "same"
        let expectedPort = otherOrigin ? run.server.otherPort : run.server.port
        let bytes = ConformanceServer.pattern(count: 5000, seed: 9)
        for (status, method) in [(302, HTTPMethod.get), (307, .post)] {
            let what = "a \(status) to the \(otherOrigin ? "other" : "same") origin followed"
            let report = try await run.echo(
                ConformanceCall(
                    url: run.url("/redirect?status=\(status)&to=\(to)&path=/echo/target"),
                    httpMethod: method,
                    headers: redirectFields,
                    body: method == .post ? .data(Data(bytes)) : nil
                ),
                expecting: what
            )
            try run.expect(
                report.port == expectedPort && report.path == "/echo/target" && report.method == method.rawValue,
                "\(what) with \(method.rawValue) to /echo/target on port \(expectedPort)",
                seen: "\(report.method) \(report.path) on port \(report.port)"
            )
            try run.expect(
                report.values(of: "X-Conformance-Plain") == ["visible"],
                "\(what) with the plain field X-Conformance-Plain",
                seen: "\(report.values(of: "X-Conformance-Plain").count) such fields"
            )
            for field in redirectFields.fields where field.name != "X-Conformance-Plain" {
                let values = report.values(of: field.name)
                if otherOrigin {
                    try run.expect(
                        values.isEmpty,
                        "\(what) without the secret field \(field.name)",
                        seen: "\(field.name) at the other origin"
                    )
                } else {
                    try run.expect(
                        values == [field.value],
                        "\(what) with the secret field \(field.name) as sent",
                        seen: values.isEmpty ? "no \(field.name)" : "\(field.name) with another value"
                    )
                }
            }
            if method == .post {
                try run.expectBody(of: report, bytes, "\(what): the body sent again")
            }
        }
    }
}
