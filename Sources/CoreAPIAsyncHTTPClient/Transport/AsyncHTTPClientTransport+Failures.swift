#if AsyncHTTPClient
    import AsyncHTTPClient
    import CoreAPI
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import NIOSSL

    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// How the transport names the errors AsyncHTTPClient and SwiftNIO report.
    extension AsyncHTTPClientTransport {
        /// The `ApiError` for an error an exchange ended with, other than a timeout or a cancel of the
        /// calling task, which the caller names itself.
        ///
        /// - A connection that could not be made (refused, unreachable, or not made within the client's
        ///   connect timeout) is `cannotConnect`; a name that did not
        ///   resolve is `dns`.
        /// - A TLS failure is `tls` before the response head, and
        ///   `connectionLost` after it, like any other end of the
        ///   connection once the head has arrived: the body was cut short (a `Content-Length` body or a
        ///   chunked one without its last chunk).
        /// - A head or body that cannot be parsed is `badResponse`.
        /// - Another error of SwiftNIO or AsyncHTTPClient is `other` before the head and
        ///   `connectionLost` after it; an error of any other module is `unknown(_:)`, never a transport
        ///   failure.
        ///
        /// A transport failure keeps `error` as its `cause`.
        /// - Parameters:
        ///   - error: The error the exchange ended with.
        ///   - afterHead: Whether the response head had arrived.
        static func failure(for error: any Error, afterHead: Bool) -> ApiError {
            let kind: ApiError.TransportFailure.Kind
            switch error {
            case let error as ApiError:
                return error
            case is CancellationError:
                return .cancelled
            case let error as HTTPClientError:
                return failure(for: error, afterHead: afterHead)
            case let error as NIOConnectionError:
                let dnsFailed = error.dnsAError != nil || error.dnsAAAAError != nil
                kind = error.connectionErrors.isEmpty && dnsFailed ? .dns : .cannotConnect
            case is SocketAddressError.UnknownHost:
                kind = .dns
            case let error as IOError:
                kind = failure(forErrno: error.errnoCode, afterHead: afterHead)
            case let error as ChannelError:
                kind = failure(for: error, afterHead: afterHead)
            case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
                // Once the head has arrived, the handshake and the certificate were accepted.
                kind = afterHead ? .connectionLost : .tls
            case let parserError as HTTPParserError:
                kind =
                    parserError == .invalidEOFState || parserError == .closedConnection ? .connectionLost : .badResponse
            case _ where isNetworkError(error):
                kind = afterHead ? .connectionLost : .other
            default:
                return .unknown(.init(error))
            }
            return .transport(.init(kind: kind, cause: error))
        }

        /// Whether `error` is one of SwiftNIO's (its HTTP/2, TLS and extras modules too) or
        /// AsyncHTTPClient's: those report a failure of the connection, whatever the type.
        static func isNetworkError(_ error: any Error) -> Bool {
            let module = String(reflecting: type(of: error)).prefix { $0 != "." }
            return module.hasPrefix("NIO") || module == "AsyncHTTPClient" || module == "CNIOBoringSSL"
        }

        /// Whether `error`, met before any byte of the response, says the request went to a connection
        /// the server had already closed — typically a kept-alive connection it closed while idle, which
        /// the client had not noticed yet — so it can be sent again on another connection.
        ///
        /// A write on a closed channel means the server never got the request, which can be sent again
        /// whatever its method, unless body bytes were handed over (part of them may have been written
        /// before). A connection closed or reset before the response may have followed a request the
        /// server read; RFC 9112 §9.3.1 lets a client send again only an idempotent one. libcurl, under
        /// `URLSession` on Linux, retries a reused connection that died in the same way.
        /// - Parameters:
        ///   - error: The error the attempt ended with.
        ///   - method: The request method.
        ///   - sentBody: Whether any body byte was handed to the client.
        static func isStale(_ error: any Error, method: String, sentBody: Bool) -> Bool {
            let idempotent = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"].contains(method.uppercased())
            switch error {
            case let error as ChannelError where error == .ioOnClosedChannel:
                return !sentBody || idempotent
            case let error as HTTPClientError where error == .remoteConnectionClosed:
                return idempotent
            case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
                return idempotent
            default:
                return false
            }
        }

        private static func failure(for error: HTTPClientError, afterHead: Bool) -> ApiError {
            let kind = kind(of: error)
            return kind.map { .transport(.init(kind: $0, cause: error)) } ?? apiError(for: error)
        }

        /// The transport failure's kind of `error`, or `nil` when it is not a transport failure.
        private static func kind(of error: HTTPClientError) -> ApiError.TransportFailure.Kind? {
            switch error {
            case .cancelled, .deadlineExceeded, .readTimeout, .writeTimeout, .alreadyShutdown, .invalidURL,
                .emptyHost, .emptyScheme, .missingSocketPath:
                return nil
            case .connectTimeout, .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
                return .cannotConnect
            case .tlsHandshakeTimeout:
                return .tls
            case .remoteConnectionClosed, .uncleanShutdown:
                return .connectionLost
            case .invalidProxyResponse:
                return .badResponse
            default:
                return .other
            }
        }

        /// The `ApiError` of an `HTTPClientError` that is no transport failure.
        private static func apiError(for error: HTTPClientError) -> ApiError {
            switch error {
            case .cancelled:
                return .cancelled
            case .deadlineExceeded, .readTimeout, .writeTimeout:
                return .timeout
            case .alreadyShutdown:
                return .invalidRequest(.sessionInvalidated)
            default:
                return .invalidRequest(.invalidURL(error.description))
            }
        }

        private static func failure(forErrno code: Int32, afterHead: Bool) -> ApiError.TransportFailure.Kind {
            switch code {
            case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL, ENETDOWN:
                return afterHead ? .connectionLost : .cannotConnect
            case ECONNRESET, ECONNABORTED, EPIPE, ETIMEDOUT:
                return .connectionLost
            default:
                return afterHead ? .connectionLost : .other
            }
        }

        private static func failure(for error: ChannelError, afterHead: Bool) -> ApiError.TransportFailure.Kind {
            switch error {
            case .connectTimeout:
                return .cannotConnect
            case .ioOnClosedChannel, .alreadyClosed, .eof, .outputClosed, .inputClosed:
                return .connectionLost
            default:
                return afterHead ? .connectionLost : .other
            }
        }
    }
#endif
