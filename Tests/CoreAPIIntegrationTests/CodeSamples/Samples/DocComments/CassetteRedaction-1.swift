// CassetteRedaction.swift, sample 1: statements, in the body of a function.
import CoreAPI
import CoreAPITesting

private func sample() -> CassetteRedaction {
    let redaction = CassetteRedaction(secrets: Secrets(headerNames: ["X-Api-Key"], parameterKeys: ["pin"]))
        .replacing("4111 1111 1111 1111", with: "<card-number>")
    return redaction
}
