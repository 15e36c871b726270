#if Metrics
    import CoreAPI
    @testable import CoreAPIMetrics
    import CoreAPITesting
    import Foundation
    import Metrics
    import MetricsTestKit
    import Testing

    @Suite struct MetricsMiddlewareTests {
        /// The dimensions of `timer` as a dictionary.
        static func dimensions(_ dimensions: [(String, String)]) -> [String: String] {
            Dictionary(dimensions, uniquingKeysWith: { first, _ in first })
        }

        @Test func eachRequestAndTheCallAreRecordedWithBoundedDimensions() async throws {
            let metrics = TestMetrics()
            let stub = ObservedCall.makeTransport()
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [MetricsMiddleware(factory: metrics), ObservedCall.retry]
            )
            _ = try await session.perform(ObservedGet())

            // Three requests on the wire: the 503, the 302 and the 200 it led to.
            let requests = metrics.timers(label: "http.client.request.duration")
            let byStatus = Dictionary(
                requests.map { (Self.dimensions($0.dimensions)["http.response.status_code"] ?? "", $0) },
                uniquingKeysWith: { first, _ in first }
            )
            #expect(Set(byStatus.keys) == ["503", "302", "200"])
            #expect(requests.allSatisfy { $0.values.count == 1 && $0.displayUnit == .seconds })
            #expect(Self.dimensions(try #require(byStatus["503"]).dimensions)["error.type"] == "503")
            #expect(Self.dimensions(try #require(byStatus["200"]).dimensions)["error.type"] == nil)
            let first = Self.dimensions(try #require(byStatus["200"]).dimensions)
            #expect(
                first == [
                    "http.request.method": "GET", "server.address": "api.example.com", "server.port": "443",
                    "url.scheme": "https", "coreapi.method": "ObservedGet", "http.response.status_code": "200",
                ]
            )

            // One call.
            let calls = metrics.timers(label: "coreapi.client.call.duration")
            #expect(calls.count == 1)
            #expect(calls.first?.values.count == 1)
            #expect(
                calls.first.map { Self.dimensions($0.dimensions) } == [
                    "http.request.method": "GET", "server.address": "api.example.com", "coreapi.method": "ObservedGet",
                    "http.response.status_code": "200",
                ]
            )

            // In flight one at a time, none left.
            let active = try metrics.expectMeter(
                "http.client.active_requests",
                [
                    ("http.request.method", "GET"), ("server.address", "api.example.com"), ("server.port", "443"),
                    ("url.scheme", "https"),
                ]
            )
            #expect(active.values.max() == 1)
            #expect(active.lastValue == 0)

            // No URL, path or secret in any dimension.
            let allDimensions = (requests + calls).flatMap(\.dimensions) + metrics.meters.flatMap(\.dimensions)
            for (name, value) in allDimensions {
                #expect(!value.contains("/"), "\(name) holds a path: \(value)")
                #expect(ObservedCall.isFreeOfSecrets(value), "\(name) holds a secret")
            }
        }

        @Test func aHopToAnotherServerIsRecordedWithItsOwnServer() async throws {
            let metrics = TestMetrics()
            let stub = StubTransport()
            stub.on(.get, "/orders/42") { _ in
                .status(307, headers: ["Location": "https://files.example.com:8443/o/42"])
            }
            stub.on(.get, "/o/42", reply: .text("{}"))
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [MetricsMiddleware(factory: metrics)]
            )
            _ = try await session.perform(ObservedGet())
            let requests = metrics.timers(label: "http.client.request.duration").map { Self.dimensions($0.dimensions) }
            let servers = requests.map {
                [$0["http.response.status_code"], $0["server.address"], $0["server.port"], $0["url.scheme"]]
            }
            #expect(
                Set(servers) == [
                    ["307", "api.example.com", "443", "https"], ["200", "files.example.com", "8443", "https"],
                ]
            )
            let call = try #require(metrics.timers(label: "coreapi.client.call.duration").first)
            #expect(Self.dimensions(call.dimensions)["server.address"] == "api.example.com")
        }

        @Test(arguments: [
            (0, "0"), (7, "7"), (80, "80"), (99, "99"), (100, "100"), (204, "204"), (443, "443"), (599, "599"),
            (600, "600"),
            (1000, "1000"), (8080, "8080"), (8443, "8443"), (10000, "10000"), (65535, "65535"), (99999, "99999"),
            (100_000, "100000"), (-1, "-1"), (Int.min, String(Int.min)),
        ])
        func numbersAreWrittenInDecimal(value: Int, text: String) {
            #expect(MetricsMiddleware.Server.decimal(value) == text)
        }

        /// A URL's server as the quick reading of plain URLs finds it (`true`: it reads this one), always
        /// the same as Foundation's.
        @Test(arguments: [
            ("https://api.example.com/orders/42?page=2", true),
            ("https://api.example.com", true),
            ("http://127.0.0.1:8080/x", true),
            ("https://files.example.com:8443?q=1", true),
            ("https://h.example#frag", true),
            ("https://api.example.com:0080/x", true),
            ("https://API.example.com/x", false),
            ("HTTPS://api.example.com/x", false),
            ("https://user:secret@api.example.com/x", false),
            ("https://[::1]:8443/x", false),
            ("http://[fe80::1%25en0]/x", false),
            ("https://caf%C3%A9.example/x", false),
            ("https://api.example.com:/x", false),
            ("ws://api.example.com/socket", false),
        ])
        func theServerOfAURLIsFoundationsReading(text: String, isPlain: Bool) throws {
            let url = try #require(URL(string: text))
            #expect((MetricsMiddleware.Server.plain(text) != nil) == isPlain)
            let shared = MetricsMiddleware.Shared(factory: TestMetrics())
            #expect(shared.server(of: url) == MetricsMiddleware.Server(parts: url))
        }

        /// The server read last is given again only for a URL with the same authority: a longer host, a
        /// port, another scheme or a URL Foundation reads are read afresh, in any order.
        @Test func theServerReadLastIsGivenOnlyForTheSameAuthority() throws {
            let texts = [
                "https://api.example.com/orders/42", "https://api.example.com/orders/43?page=2",
                "https://api.example.com", "https://api.example.com#top", "https://api.example.community/x",
                "https://api.example.com:8443/x", "https://api.example.com:8443?q=1", "http://api.example.com/x",
                "https://api.example.com:84/x", "https://user:secret@api.example.com/x", "https://api.example.com/x",
                "https://[::1]:8443/x", "https://api.example.co/x", "https://API.example.com/x",
                "https://api.example.com/x",
            ]
            let shared = MetricsMiddleware.Shared(factory: TestMetrics())
            for _ in 0..<2 {
                for text in texts {
                    let url = try #require(URL(string: text))
                    #expect(shared.server(of: url) == MetricsMiddleware.Server(parts: url), "\(text)")
                }
            }
        }

        @Test func failuresAreCountedByErrorType() async throws {
            let metrics = TestMetrics()
            let stub = StubTransport(fallback: .failure(.timeout))
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [MetricsMiddleware(factory: metrics)]
            )
            await #expect(throws: ApiError.timeout) { try await session.perform(ObservedGet()) }
            let request = try #require(metrics.timers(label: "http.client.request.duration").first)
            #expect(Self.dimensions(request.dimensions)["error.type"] == "timeout")
            #expect(Self.dimensions(request.dimensions)["http.response.status_code"] == nil)
            let call = try #require(metrics.timers(label: "coreapi.client.call.duration").first)
            #expect(Self.dimensions(call.dimensions)["error.type"] == "timeout")
        }

        /// Each record's dimensions are its own call's, although the middleware gives a call the ones it
        /// made for the call before when they were made from the same: calls that change their method,
        /// status or failure from one to the next, and back, each get theirs, in the order they always had.
        @Test func aSequenceOfCallsGetsTheDimensionsOfEachOutcome() async throws {
            let metrics = TestMetrics()
            let stub = StubTransport(fallback: .failure(.timeout))
            stub.on(.get, "/ok", reply: .text("{}"))
            stub.on(.get, "/busy") { _ in .status(503) }
            stub.on(HTTPMethod(rawValue: "PURGE"), "/cache/7", reply: .text("{}"))
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [MetricsMiddleware(factory: metrics)]
            )
            let server = [("server.address", "api.example.com"), ("server.port", "443"), ("url.scheme", "https")]
            // Per call: what it calls, the outcome's dimensions of its request and of the call.
            let calls: [(path: String?, request: [(String, String)], call: [(String, String)])] = [
                ("/ok", [("http.response.status_code", "200")], [("http.response.status_code", "200")]),
                (
                    "/busy", [("http.response.status_code", "503"), ("error.type", "503")],
                    [("http.response.status_code", "503"), ("error.type", "503")]
                ),
                ("/lost", [("error.type", "timeout")], [("error.type", "timeout")]),
                (nil, [("http.response.status_code", "200")], [("http.response.status_code", "200")]),
                ("/ok", [("http.response.status_code", "200")], [("http.response.status_code", "200")]),
                ("/ok", [("http.response.status_code", "200")], [("http.response.status_code", "200")]),
                (
                    "/busy", [("http.response.status_code", "503"), ("error.type", "503")],
                    [("http.response.status_code", "503"), ("error.type", "503")]
                ),
            ]
            var requests: [String: Int] = [:]
            var callTimers: [String: Int] = [:]
            for call in calls {
                let method = call.path == nil ? "_OTHER" : "GET"
                let name = call.path == nil ? "Purge" : "PathGet"
                if let path = call.path {
                    _ = try? await session.perform(PathGet(path: path))
                } else {
                    _ = try await session.perform(Purge())
                }
                let request =
                    [("http.request.method", method)] + server + [("coreapi.method", name)] + call.request
                let whole =
                    [("http.request.method", method), ("server.address", "api.example.com"), ("coreapi.method", name)]
                    + call.call
                requests["\(request)", default: 0] += 1
                callTimers["\(whole)", default: 0] += 1
            }
            let recordedRequests = metrics.timers(label: "http.client.request.duration")
            #expect(
                Dictionary(uniqueKeysWithValues: recordedRequests.map { ("\($0.dimensions)", $0.values.count) })
                    == requests
            )
            let recordedCalls = metrics.timers(label: "coreapi.client.call.duration")
            #expect(
                Dictionary(uniqueKeysWithValues: recordedCalls.map { ("\($0.dimensions)", $0.values.count) })
                    == callTimers
            )
            #expect(metrics.meters.count == 2)  // GET and _OTHER, each on the same server
            #expect(metrics.meters.allSatisfy { $0.lastValue == 0 })
        }

        @Test func anUnregisteredMethodIsOther() async throws {
            let metrics = TestMetrics()
            let stub = StubTransport(fallback: .text("{}"))
            let session = stub.makeSession(
                hosts: ["api": "https://api.example.com"],
                middlewares: [MetricsMiddleware(factory: metrics)]
            )
            _ = try await session.perform(Purge())
            let call = try #require(metrics.timers(label: "coreapi.client.call.duration").first)
            #expect(Self.dimensions(call.dimensions)["http.request.method"] == "_OTHER")
        }
    }

    /// A `GET` of a path of its own, with no parameters.
    private struct PathGet: ApiMethod {
        typealias Response = Data
        let path: String
        var hostProviderKey: String { "api" }
        func encode(to encoder: any Encoder) throws {}
    }

    /// A method with a method name of its own.
    private struct Purge: ApiMethod {
        typealias Response = Data
        var hostProviderKey: String { "api" }
        var httpMethod: HTTPMethod { HTTPMethod(rawValue: "PURGE") }
        var path: String { "/cache/7" }
        func encode(to encoder: any Encoder) throws {}
    }
#endif
