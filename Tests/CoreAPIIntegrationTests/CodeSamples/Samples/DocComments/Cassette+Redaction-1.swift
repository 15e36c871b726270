// Cassette+Redaction.swift, sample 1: statements, in the body of a function.
import CoreAPI
import CoreAPITesting

private func sample() -> Cassette.Redaction {
    let redaction = Cassette.Redaction(secrets: Secrets(headerNames: ["X-Api-Key"], parameterKeys: ["pin"]))
        .replacing("4111 1111 1111 1111", with: "<card-number>")
    return redaction
}
