public import Foundation

/// A ``HostProvider`` with named environments (such as `dev`, `stage` and `prod`), one of them current.
///
/// The current environment can be switched at run time from any thread; requests built afterwards use
/// it. The initial environment can come from a process environment variable.
///
/// ```swift
/// let hosts = try EnvironmentsHostProvider(
///     environments: [
///         "dev": ["api": "https://dev.example.com"],
///         "prod": ["api": "https://api.example.com"],
///     ],
///     current: "prod",
///     environmentVariable: "EXAMPLE_ENVIRONMENT"
/// )
/// try hosts.select("dev")
/// ```
public final class EnvironmentsHostProvider: HostProvider {
    /// The hosts by key of every environment, by environment name.
    public let environments: [String: [String: String]]
    private let selected: LockedValue<String>

    /// Creates a provider.
    /// - Parameters:
    ///   - environments: The hosts by key of each environment, by environment name.
    ///   - current: The environment to use when `environmentVariable` does not name one.
    ///   - environmentVariable: A process environment variable whose value, when set and not empty,
    ///     names the initial environment.
    ///   - processEnvironment: The process environment to read; the real one by default.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/unknownEnvironment(_:)``
    ///   when the chosen environment is not in `environments`.
    public init(
        environments: [String: [String: String]],
        current: String,
        environmentVariable: String? = nil,
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        let fromVariable = environmentVariable.flatMap { processEnvironment[$0] }.flatMap { $0.isEmpty ? nil : $0 }
        let name = fromVariable ?? current
        guard environments[name] != nil else {
            throw ApiError.invalidRequest(.unknownEnvironment(name))
        }
        self.environments = environments
        self.selected = LockedValue(name)
    }

    /// The name of the current environment.
    public var current: String {
        selected.current
    }

    /// The names of all environments, sorted.
    public var names: [String] {
        environments.keys.sorted()
    }

    /// Makes `name` the current environment. Safe to call from any thread.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/unknownEnvironment(_:)``
    ///   when there is no such environment; the current one is then kept.
    public func select(_ name: String) throws {
        guard environments[name] != nil else {
            throw ApiError.invalidRequest(.unknownEnvironment(name))
        }
        selected.withLock { $0 = name }
    }

    /// The host for `key` in the current environment.
    /// - Throws: ``ApiError/invalidRequest(_:)`` with ``ApiError/InvalidRequestReason/unknownHostKey(_:)``.
    public func host(for key: String) throws -> String {
        guard let host = environments[current]?[key] else {
            throw ApiError.invalidRequest(.unknownHostKey(key))
        }
        return host
    }
}
