import CoreAPI
import CoreAPITesting
import Foundation
import Testing

/// The conformance kit fails a transport that breaks the contract, with a typed failure that names the
/// case and shows no secret: each broken transport below wraps a real engine and breaks one rule.
@Suite(.timeLimit(.minutes(1)))
struct ConformanceKitFailureTests {
    /// Drops one header field of every request.
    struct FieldDroppingTransport: Transport {
        let base: any Transport

        func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            var request = request
            request.headers.remove("X-Conformance-Spaces")
            return try await base.send(request, options: options)
        }
    }

    /// Ignores the exchange's control and deadline: its engine runs in a task that no cancel reaches, and
    /// keeps only its own idle timeout, so a call ends when the server lets it.
    struct DeafTransport: Transport {
        let base: any Transport

        func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            var options = options
            options.control = nil
            options.deadline = nil
            let base = base
            let engine = options
            return try await Task.detached { try await base.send(request, options: engine) }.value
        }
    }

    /// Collects every body whole, whatever the size limit.
    struct UnlimitedTransport: Transport {
        let base: any Transport

        func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            var options = options
            options.maximumResponseSize = .max
            return try await base.send(request, options: options)
        }
    }

    /// Reports every transport failure as `other`.
    struct KindLosingTransport: Transport {
        let base: any Transport

        func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            do {
                return try await base.send(request, options: options)
            } catch ApiError.transport {
                throw ApiError.transport(.init(kind: .other))
            }
        }
    }

    /// Remembers the last `Authorization` it sent and sends it again when a request has none, as an
    /// engine with a credential store of its own would.
    final class CredentialKeepingTransport: Transport {
        let base: any Transport
        private let remembered = LockedList<String>()

        init(base: any Transport) {
            self.base = base
        }

        func send(_ request: ApiRequest, options: TransportOptions) async throws -> RawResponse {
            var request = request
            if let authorization = request.headers["Authorization"] {
                remembered.append(authorization)
            } else if let authorization = remembered.values.last {
                request.headers.set(authorization, for: "Authorization")
            }
            return try await base.send(request, options: options)
        }
    }

    typealias Breakage = (name: String, breaks: [String], wrap: @Sendable (any Transport) -> any Transport)

    /// Each broken transport and the cases it fails.
    static let breakages: [Breakage] = [
        ("drops a field", ["sendsTheRequestAsItIs"], { FieldDroppingTransport(base: $0) }),
        ("ignores the control", ["endsAtTheDeadline", "endsWhenCancelled"], { DeafTransport(base: $0) }),
        ("ignores the size limit", ["holdsTheSizeLimit"], { UnlimitedTransport(base: $0) }),
        ("loses the failure's kind", ["reportsAConnectionLostAfterTheHead"], { KindLosingTransport(base: $0) }),
        ("keeps credentials", ["dropsSecretsAcrossOrigins"], { CredentialKeepingTransport(base: $0) }),
    ]

    static func conformanceCase(named name: String) throws -> TransportConformance.Case {
        try #require(TransportConformance.cases.first { $0.name == name })
    }

    @Test(arguments: TestTransport.engines, breakages.indices)
    func aBrokenTransportFailsWithATypedFailure(engine: TestTransport, index: Int) async throws {
        let breakage = Self.breakages[index]
        for name in breakage.breaks {
            let conformanceCase = try Self.conformanceCase(named: name)
            let transport = breakage.wrap(engine.makeTransport())
            let failure = await #expect(throws: TransportConformance.Failure.self, "\(breakage.name): \(name)") {
                try await conformanceCase.run { transport }
            }
            #expect(failure?.caseName == name)
            let description = failure?.description ?? ""
            #expect(description.hasPrefix("Transport conformance case \"\(name)\": expected "))
            for secret in ["conformance-token", "conformance-cookie", "conformance-secret"] {
                #expect(!description.contains(secret), "\(description)")
            }
        }
    }

    /// An engine that cannot stop passes the time cases behind ``DetachedTransport``, which lets the
    /// caller go when the exchange ends; the engine keeps the idle timeout.
    @Test(arguments: TestTransport.engines, ["endsOnTheIdleTimeout", "endsAtTheDeadline", "endsWhenCancelled"])
    func anEngineThatCannotStopPassesBehindDetachedTransport(engine: TestTransport, name: String) async throws {
        let transport = DetachedTransport(DeafTransport(base: engine.makeTransport()), reportsActivity: false)
        try await Self.conformanceCase(named: name).run { transport }
    }
}
