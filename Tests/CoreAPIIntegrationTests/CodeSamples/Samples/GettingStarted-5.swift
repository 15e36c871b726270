// GettingStarted.md, sample 5.
import CoreAPI
import Foundation

struct GetCatalog: ApiMethod {
    typealias Response = Data
    var hostProviderKey: String { "api" }
    var path: String { "/catalog" }
    var options: CallOptions {
        CallOptions(
            timeout: .seconds(10),  // the longest wait for the response to start or continue
            deadline: .seconds(60),  // the longest the call may take in the network
            maximumResponseSize: 50 * 1024 * 1024,  // bytes, after decoding
            acceptableStatusCodes: [200, 304],  // success; 200..<300 by default
            statusErrors: [.notFound: CocoaError(.fileNoSuchFile)],  // this method's own errors
            statusMessages: [.tooManyRequests: "Slow down."],  // shown with other status errors
            isLoggingEnabled: false,  // logging middlewares skip it
            callKey: CallKey("catalog"),  // finds or cancels it in flight
            sharesIdenticalCalls: true,  // joins an identical call in flight
            cachePolicy: .revalidate,  // how an HTTPCacheMiddleware answers it
            middlewares: [MinimumDurationMiddleware(minimum: .milliseconds(300))]  // for these calls alone
        )
    }
}
