// DefiningAServiceModule.md, sample 4: statements, compiled as the body of a function.
import CoreAPI

func statusMessagesSample() -> ApiSession {
    let hosts = DictionaryHostProvider(["shop": "https://shop.example.com"])
    let session = ApiSession(
        hostProvider: hosts,
        defaults: CallOptions(
            statusMessages: [
                .tooManyRequests: "Too many attempts. Try again in a minute.",
                .serviceUnavailable: "The shop is down for maintenance.",
            ]
        )
    )
    return session
}
