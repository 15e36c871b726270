import CoreAPI
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if AsyncHTTPClient
    import CoreAPIAsyncHTTPClient
#endif

/// The transports the loopback tests run against: a test of how a call behaves on the wire takes one as
/// its argument (`@Test(arguments: TestTransport.underTest)`) and makes its sessions with
/// ``makeSession(hostProvider:configuration:headers:middlewares:policy:)``, so every transport is held to
/// the same assertions, those of the ``Transport`` contract.
///
/// Where a transport is documented to behave differently, the difference is one of the properties under
/// "Documented differences" below, and the test asserts each transport's own behaviour from it. Every
/// difference is there and nowhere else.
enum TestTransport: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``URLSessionTransport``, the default, made by the session from its configuration.
    case urlSession
    #if AsyncHTTPClient
        /// `AsyncHTTPClientTransport`, the one ``sharedAsyncHTTPClientTransport`` of the process.
        case asyncHTTPClient
        /// ``HeaderAddingTransport`` around the shared `AsyncHTTPClientTransport`, behind
        /// ``DetachedTransport``: a transport written outside CoreAPI with its public API only, run the way
        /// an engine that cannot stop is run, held to the same contract — timeouts, cancellation,
        /// progress — as CoreAPI's own.
        case wrappedAsyncHTTPClient
    #endif

    /// The transports this run tests: every case, or those named in the environment variable
    /// `COREAPI_TEST_TRANSPORTS` (raw values separated by commas, such as `asyncHTTPClient`).
    ///
    /// CI runs the whole suite over URLSession in the README's `swift test`, then the trait build's run with
    /// `COREAPI_TEST_TRANSPORTS=asyncHTTPClient`, so the second run repeats no URLSession case. A name that
    /// is no case of this build stops the run, so a typo cannot quietly test nothing.
    static let underTest: [TestTransport] = {
        guard let names = ProcessInfo.processInfo.environment["COREAPI_TEST_TRANSPORTS"], !names.isEmpty else {
            return allCases
        }
        return names.split(separator: ",").map { name in
            guard let transport = TestTransport(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                fatalError("COREAPI_TEST_TRANSPORTS names \(name), which is not a transport of this build")
            }
            return transport
        }
    }()

    /// The engines under test: ``underTest`` without the wrapper, which forwards every exchange to the
    /// shared AsyncHTTPClient transport. Suites about the engine rather than the contract — load,
    /// memory, a store surviving a restart, sharing exchanges — run on these alone.
    static let engines: [TestTransport] = underTest.filter { $0.addedWrapperField == nil }

    var testDescription: String {
        switch self {
        case .urlSession: return "URLSession"
        #if AsyncHTTPClient
            case .asyncHTTPClient: return "AsyncHTTPClient"
            case .wrappedAsyncHTTPClient: return "AsyncHTTPClient, wrapped"
        #endif
        }
    }

    /// A session over this transport.
    ///
    /// Over URLSession this is exactly the session the tests made before they ran on every transport:
    /// `ApiSession(hostProvider:headers:middlewares:policy:)`, or with `configuration` when one is given,
    /// so URLSession's behaviour under test is unchanged. Another transport is shared by its sessions and
    /// takes only the idle timeout (`timeoutIntervalForRequest`) of `configuration`: the rest of it
    /// (cookies, connections per host) configures URLSession alone.
    /// - Parameters:
    ///   - hostProvider: The hosts, usually the fixture's.
    ///   - configuration: URLSession's configuration, when a test needs one of its own.
    ///   - headers: Header fields for every request.
    ///   - middlewares: The session's middlewares.
    ///   - policy: Redirect rules and secret header names.
    ///   - defaults: The session's settings of every call.
    func makeSession(
        hostProvider: any HostProvider,
        configuration: URLSessionConfiguration? = nil,
        headers: Headers = Headers(),
        middlewares: [any Middleware] = [],
        policy: SessionPolicy = SessionPolicy(),
        defaults: CallOptions = CallOptions()
    ) -> ApiSession {
        switch self {
        case .urlSession:
            guard let configuration else {
                return ApiSession(
                    hostProvider: hostProvider,
                    headers: headers,
                    middlewares: middlewares,
                    policy: policy,
                    defaults: defaults
                )
            }
            return ApiSession(
                hostProvider: hostProvider,
                configuration: configuration,
                headers: headers,
                middlewares: middlewares,
                policy: policy,
                defaults: defaults
            )
        #if AsyncHTTPClient
            case .asyncHTTPClient, .wrappedAsyncHTTPClient:
                return ApiSession(
                    hostProvider: hostProvider,
                    transport: self == .asyncHTTPClient
                        ? Self.sharedAsyncHTTPClientTransport as any Transport
                        : DetachedTransport(
                            HeaderAddingTransport(base: Self.sharedAsyncHTTPClientTransport),
                            reportsActivity: true
                        ),
                    headers: headers,
                    middlewares: middlewares,
                    policy: policy,
                    defaults: CallOptions(timeout: .seconds(configuration?.timeoutIntervalForRequest ?? 60))
                        .merging(defaults)
                )
        #endif
        }
    }

    #if AsyncHTTPClient
        /// The one AsyncHTTPClient transport of the test process, shared by all its sessions as an
        /// application shares one `HTTPClient`.
        ///
        /// It is never shut down, on purpose: `shutdown()` is for an owner that goes on running without
        /// the client, while here the test process ends once its tests have, and its event loops and
        /// connections end with it. A transport per test would have to be shut down by a test that cannot
        /// know when the engine is done with the calls it cancelled, and would leave event loop threads
        /// behind for the rest of the run if it were not. The concurrency stress scenarios hold a thousand
        /// requests at the fixture at once, so, like their URLSession sessions, it opens up to a thousand
        /// connections to one host.
        static let sharedAsyncHTTPClientTransport = AsyncHTTPClientTransport(maximumConnectionsPerHost: 1000)
    #endif

    /// The `X-Wrapped-By` value the transport adds to every request: only the wrapper written with the
    /// public API adds one.
    var addedWrapperField: String? {
        #if AsyncHTTPClient
            if self == .wrappedAsyncHTTPClient { return "HeaderAddingTransport" }
        #endif
        return nil
    }

    // MARK: - Documented differences

    /// Whether URLSession is FoundationNetworking here (Linux), not Apple's.
    private static let urlSessionIsFoundationNetworking: Bool = {
        #if canImport(FoundationNetworking)
            return true
        #else
            return false
        #endif
    }()

    /// Whether a transport failure carries the `URLError` code FoundationNetworking reports for the fault
    /// (the `linuxCode` column of ``SerialLoopback/TransportFaultTests/transportFaults``). Only URLSession
    /// on Linux does. Apple's URLSession reports codes of its own, and other engines no `URLError` at all:
    /// for them a test checks the kind of the failure, which the ``Transport`` contract fixes, alone.
    var reportsFoundationNetworkingCodes: Bool {
        switch self {
        case .urlSession: return Self.urlSessionIsFoundationNetworking
        #if AsyncHTTPClient
            case .asyncHTTPClient, .wrappedAsyncHTTPClient: return false
        #endif
        }
    }

    /// Whether the engine reads a redirect's whole body, reporting none of its bytes, before the `3xx`
    /// reaches the transport. FoundationNetworking does (Docs/PlatformBehaviour.md), and cannot be stopped
    /// early, so on Linux a redirect whose body trickles in takes the whole trickle, and an idle timeout
    /// shorter than the trickle ends the call. Apple's URLSession and AsyncHTTPClient hand the `3xx` over at
    /// once; the transport keeps its first 64 KiB and the session follows it.
    var readsRedirectBodiesWhole: Bool {
        switch self {
        case .urlSession: return Self.urlSessionIsFoundationNetworking
        #if AsyncHTTPClient
            case .asyncHTTPClient, .wrappedAsyncHTTPClient: return false
        #endif
        }
    }

    /// Whether the engine stops inflating a compressed body once the size limit has refused it.
    /// FoundationNetworking cannot be stopped: it inflates in its work queue, where the cancel waits its
    /// turn, so the rest of a gzip bomb is inflated after the call has ended with
    /// ``ApiError/responseTooLarge(limit:)`` (Docs/PlatformBehaviour.md). Apple's URLSession stops with the
    /// task it cancels, and AsyncHTTPClient with the request the transport cancels.
    var stopsInflatingAtTheLimit: Bool {
        switch self {
        case .urlSession: return !Self.urlSessionIsFoundationNetworking
        #if AsyncHTTPClient
            case .asyncHTTPClient, .wrappedAsyncHTTPClient: return true
        #endif
        }
    }

    /// Whether a response waits for one work queue the engine shares across the process.
    /// FoundationNetworking makes, reads and cancels every task of the process on one queue, so while
    /// another session reads a large body, a response — a Basic `401` challenge included — arrives only
    /// when that queue gets to it (Docs/PlatformBehaviour.md): the most a test can ask is that it arrives
    /// no later than a plain request started with it. With other engines it arrives at once.
    var waitsForASharedWorkQueue: Bool {
        switch self {
        case .urlSession: return Self.urlSessionIsFoundationNetworking
        #if AsyncHTTPClient
            case .asyncHTTPClient, .wrappedAsyncHTTPClient: return false
        #endif
        }
    }

    /// Whether the engine's parser reads a head with repeated `Content-Length` fields that agree
    /// (`10, 10`), and a length no `Int64` holds as a body to read to the end. libcurl does both
    /// (RFC 9110 lets a recipient accept agreeing lengths); SwiftNIO's parser refuses either head, so
    /// AsyncHTTPClient reports ``ApiError/TransportFailure/Kind/badResponse`` — never a guessed body.
    var acceptsRepeatedOrHugeContentLength: Bool {
        switch self {
        case .urlSession: return true
        #if AsyncHTTPClient
            case .asyncHTTPClient, .wrappedAsyncHTTPClient: return false
        #endif
        }
    }

    /// Whether a stream whose reader falls its buffer's limit behind waits for the reader. AsyncHTTPClient
    /// reads no more from the connection; Apple's URLSession suspends the task. FoundationNetworking cannot
    /// pause a task (Docs/PlatformBehaviour.md), so there the stream ends with
    /// ``ApiError/streamBufferFull(limit:)``.
    var pausesStreamsForSlowReaders: Bool {
        switch self {
        case .urlSession: return !Self.urlSessionIsFoundationNetworking
        #if AsyncHTTPClient
            case .asyncHTTPClient, .wrappedAsyncHTTPClient: return true
        #endif
        }
    }

    /// Whether no more than a stream's buffer limit ever waits for its reader. AsyncHTTPClient waits for
    /// room before each piece, and URLSession on Linux ends the stream before a piece that does not fit;
    /// Apple's URLSession suspends its task only after a piece filled the buffer, and pieces already on
    /// their way still arrive.
    var holdsStreamsWithinTheirLimit: Bool {
        switch self {
        case .urlSession: return Self.urlSessionIsFoundationNetworking
        #if AsyncHTTPClient
            case .asyncHTTPClient, .wrappedAsyncHTTPClient: return true
        #endif
        }
    }

    /// Whether a streamed body (`RequestBody.stream`) of unknown length reaches the server with a
    /// `Content-Length`. ``URLSessionTransport`` writes every stream to a temporary file and uploads that
    /// file (Docs/PlatformBehaviour.md); AsyncHTTPClient sends it chunked, as it is produced.
    var uploadsStreamsFromFiles: Bool {
        switch self {
        case .urlSession: return true
        #if AsyncHTTPClient
            case .asyncHTTPClient, .wrappedAsyncHTTPClient: return false
        #endif
        }
    }

    /// Whether the engine sends a request again, on a new connection, when the kept-alive connection it
    /// reused closes once the body is sent and before any response. libcurl does, and FoundationNetworking
    /// gives it the body again from its first byte (the transport hands every body over as a stream made
    /// anew, Docs/PlatformBehaviour.md); AsyncHTTPClient reports the connection lost.
    var sendsAgainWhenAReusedConnectionCloses: Bool {
        switch self {
        case .urlSession: return Self.urlSessionIsFoundationNetworking
        #if AsyncHTTPClient
            case .asyncHTTPClient, .wrappedAsyncHTTPClient: return false
        #endif
        }
    }
}
