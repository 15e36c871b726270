// DefiningAServiceModule.md, sample 4: statements, compiled as the body of a function.
import CoreAPI

func statusMessagesSample(hosts: any HostProvider) -> ApiSession {
    let session = ApiSession(
        hostProvider: hosts,
        statusMessages: [
            .tooManyRequests: "Too many attempts. Try again in a minute.",
            .serviceUnavailable: "The shop is down for maintenance.",
        ]
    )
    return session
}
