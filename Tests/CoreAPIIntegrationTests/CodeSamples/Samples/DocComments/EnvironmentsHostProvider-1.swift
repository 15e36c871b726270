// EnvironmentsHostProvider.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample() throws -> EnvironmentsHostProvider {
    let hosts = try EnvironmentsHostProvider(
        environments: [
            "dev": ["api": "https://dev.example.com"],
            "prod": ["api": "https://api.example.com"],
        ],
        current: "prod",
        environmentVariable: "EXAMPLE_ENVIRONMENT"
    )
    try hosts.select("dev")
    return hosts
}
