// SecurityAndReliability.md, sample 1: statements, compiled as the body of a function.
import CoreAPI

func makePolicySession() -> ApiSession {
    let session = ApiSession(
        hostProvider: DictionaryHostProvider(["api": "https://api.example.com"]),
        policy: SessionPolicy(maximumRedirects: 3, secretHeaderNames: ["X-Api-Key"]),
        defaults: CallOptions(deadline: .seconds(120), maximumResponseSize: 50 * 1024 * 1024)
    )
    return session
}
