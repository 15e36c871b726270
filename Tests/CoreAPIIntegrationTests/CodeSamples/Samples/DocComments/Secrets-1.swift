// Secrets.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample() -> SessionPolicy {
    let secrets = Secrets(headerNames: ["X-Api-Key"], parameterKeys: ["pin"])
    let policy = SessionPolicy(secrets: secrets)
    return policy
}
