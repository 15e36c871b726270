// Environments.md, sample 1: statements, compiled as the body of a function.
import CoreAPI

func environmentsSample() throws -> (EnvironmentsHostProvider, ApiSession) {
    let hosts = try EnvironmentsHostProvider(
        environments: [
            "dev": ["api": "https://dev.example.com", "auth": "https://auth.dev.example.com"],
            "stage": ["api": "https://stage.example.com", "auth": "https://auth.stage.example.com"],
            "prod": ["api": "https://api.example.com", "auth": "https://auth.example.com"],
        ],
        current: "prod",
        environmentVariable: "EXAMPLE_ENVIRONMENT"
    )
    let session = ApiSession(hostProvider: hosts)
    try hosts.select("stage")
    return (hosts, session)
}
