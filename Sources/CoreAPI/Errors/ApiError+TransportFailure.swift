import Foundation

extension ApiError {
    /// A failure below HTTP.
    public struct TransportFailure: Sendable, Equatable {
        /// What kind of transport failure this is.
        public enum Kind: Sendable, Equatable {
            /// The connection could not be made (refused, unreachable).
            case cannotConnect
            /// The connection was lost before the response was complete.
            case connectionLost
            /// The host name could not be resolved.
            case dns
            /// The TLS handshake or certificate validation failed.
            case tls
            /// The device has no network connection.
            case offline
            /// The response was not valid HTTP.
            case badResponse
            /// Any other transport failure.
            case other
        }

        /// The category of the failure.
        public var kind: Kind
        /// The platform's `URLError` code (`URLError.Code.rawValue`) when there was one.
        public var code: Int?
        /// The error the failure was made from — the `URLError`, or the SwiftNIO or AsyncHTTPClient
        /// error — when there was one. Not compared, and never part of the description.
        public var cause: (any Error)?
        /// The host the connection was for — a name or an IP address, without user information — when
        /// it is known. The session sets it, with ``port``, for a failure to connect, to resolve the
        /// name or to secure the connection. Not compared.
        public var host: String?
        /// The port the connection was for (the scheme's default when the URL names none), when it is
        /// known. Not compared.
        public var port: Int?

        /// Creates a transport failure.
        /// - Parameters:
        ///   - kind: The category.
        ///   - code: The platform's `URLError` code, when there was one.
        ///   - cause: The error the failure was made from, when there was one.
        public init(kind: Kind, code: Int? = nil, cause: (any Error)? = nil) {
            self.kind = kind
            self.code = code
            self.cause = cause
        }

        /// Transport failures are equal when kind and code match; causes, hosts and ports are not
        /// compared.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.kind == rhs.kind && lhs.code == rhs.code
        }

        /// `host:port`, with an IPv6 address in brackets (`[::1]:8080`); `nil` without a host.
        public var endpoint: String? {
            guard let host else { return nil }
            let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            return port.map { "\(shown):\($0)" } ?? shown
        }

        /// Whether the failure is about reaching the server — connecting, resolving its name, securing
        /// the connection — so that the host and port it tried say where it failed.
        var isAboutReachingTheServer: Bool {
            kind == .cannotConnect || kind == .dns || kind == .tls
        }
    }
}
