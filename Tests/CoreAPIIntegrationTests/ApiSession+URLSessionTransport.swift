@testable import CoreAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#else
    import Foundation
#endif

/// The URLSession machinery of a session made with a configuration, for the leak and load checks.
extension ApiSession {
    var urlSessionTransport: URLSessionTransport {
        guard let transport = transport as? URLSessionTransport else {
            preconditionFailure("the session was not made over a URLSessionTransport")
        }
        return transport
    }

    var delegate: SessionDelegate { urlSessionTransport.delegate }

    var urlSession: URLSession { urlSessionTransport.urlSession }
}
