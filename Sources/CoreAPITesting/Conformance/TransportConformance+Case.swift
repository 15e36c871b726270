public import CoreAPI

extension TransportConformance {
    /// One case of the contract: a name, what it checks, and ``run(_:)``, which checks it over a
    /// transport.
    ///
    /// A case is a value: pass ``TransportConformance/cases`` to `@Test(arguments:)`, where each case is
    /// shown by its ``name``.
    public struct Case: Sendable, CustomStringConvertible {
        /// A short name, unique among the cases, such as `sendsAFileBody`.
        public let name: String
        /// What the case checks, in a sentence or two, with each behaviour it accepts where CoreAPI's own
        /// engines are documented to differ.
        public let summary: String
        /// The checks, with the run's server and session.
        let check: @Sendable (ConformanceRun) async throws -> Void

        init(_ name: String, _ summary: String, check: @escaping @Sendable (ConformanceRun) async throws -> Void) {
            self.name = name
            self.summary = summary
            self.check = check
        }

        /// The case's ``name``.
        public var description: String { name }

        /// Runs the case: starts its server, makes a session over the transport `makeTransport` returns,
        /// checks what the case checks, and stops the server — on success and on failure alike.
        /// - Parameter makeTransport: Makes the transport under test; called once.
        /// - Throws: ``Failure`` when the transport breaks the contract or the server cannot start;
        ///   what `makeTransport` throws.
        public func run(_ makeTransport: () throws -> any Transport) async throws {
            let server: ConformanceServer
            do {
                server = try ConformanceServer()
            } catch {
                throw Failure(caseName: name, expected: "a loopback server to start", seen: error.description)
            }
            defer { server.stop() }
            let run = ConformanceRun(caseName: name, server: server, transport: try makeTransport())
            do {
                try await check(run)
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Failure(caseName: name, expected: "the case's calls to succeed", seen: Failure.describe(error))
            }
        }
    }
}
