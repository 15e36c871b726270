import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The lean configuration an ``ApiSession`` gets when none is passed.
struct DefaultConfigurationTests {
    let configuration = ApiSession.makeDefaultConfiguration()

    @Test func cookiesAndTheResponseCacheAreOff() {
        #expect(configuration.httpCookieStorage == nil)
        #expect(configuration.httpShouldSetCookies == false)
        #expect(configuration.httpCookieAcceptPolicy == .never)
        #expect(configuration.urlCache == nil)
        #expect(configuration.requestCachePolicy == .reloadIgnoringLocalCacheData)
    }

    @Test func protocolClassesAreTheDefaultOnesForHTTP() throws {
        let all = try #require(URLSessionConfiguration.default.protocolClasses)
        let kept = try #require(configuration.protocolClasses)
        let names = { (classes: [AnyClass]) in classes.map { String(reflecting: $0) } }
        let loads = { (scheme: String) in
            let request = URLRequest(url: URL(string: "\(scheme)://127.0.0.1/")!)
            return { (candidate: AnyClass) in (candidate as? URLProtocol.Type)?.canInit(with: request) == true }
        }
        // Every default class that loads http or https stays, in its order; the others go.
        let expected = all.filter { loads("http")($0) || loads("https")($0) }
        #expect(names(kept) == names(expected))
        #expect(kept.contains(where: loads("http")))
        #expect(kept.contains(where: loads("https")))
        #expect(!kept.contains(where: loads("data")))
    }
}
