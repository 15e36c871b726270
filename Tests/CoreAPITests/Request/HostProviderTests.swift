import CoreAPI
import Testing

@Suite struct HostProviderTests {
    private static let environments: [String: [String: String]] = [
        "dev": ["api": "https://dev.example.com", "cdn": "https://cdn.dev.example.com"],
        "stage": ["api": "https://stage.example.com"],
        "prod": ["api": "https://api.example.com", "cdn": "https://cdn.example.com"],
    ]

    @Test func anEmptyEnvironmentVariableFallsBackToCurrent() throws {
        let provider = try EnvironmentsHostProvider(
            environments: Self.environments,
            current: "prod",
            environmentVariable: "APP_ENV",
            processEnvironment: ["APP_ENV": ""]
        )
        #expect(provider.current == "prod")
    }

    @Test func dictionaryProviderReturnsKnownHosts() throws {
        let provider = DictionaryHostProvider(["api": "https://api.example.com", "auth": "auth.example.com"])
        #expect(try provider.host(for: "api") == "https://api.example.com")
        #expect(try provider.host(for: "auth") == "auth.example.com")
    }

    @Test(arguments: ["unknown", "", "API", " api"])
    func dictionaryProviderRejectsUnknownKeys(key: String) {
        let provider: DictionaryHostProvider = ["api": "https://api.example.com"]
        #expect(throws: ApiError.invalidRequest(.unknownHostKey(key))) {
            try provider.host(for: key)
        }
    }

    @Test func dictionaryLiteralKeepsTheLastOfRepeatedKeys() throws {
        let provider: DictionaryHostProvider = ["api": "https://first", "api": "https://last", "x": "https://x"]
        #expect(try provider.host(for: "api") == "https://last")
        #expect(provider.hosts.count == 2)
    }

    @Test func environmentsStartFromCurrent() throws {
        let provider = try EnvironmentsHostProvider(environments: Self.environments, current: "prod")
        #expect(provider.current == "prod")
        #expect(try provider.host(for: "api") == "https://api.example.com")
        #expect(provider.names == ["dev", "prod", "stage"])
    }

    @Test func environmentsStartFromTheEnvironmentVariable() throws {
        let provider = try EnvironmentsHostProvider(
            environments: Self.environments,
            current: "prod",
            environmentVariable: "EXAMPLE_ENVIRONMENT",
            processEnvironment: ["EXAMPLE_ENVIRONMENT": "dev", "OTHER": "stage"]
        )
        #expect(provider.current == "dev")
        #expect(try provider.host(for: "api") == "https://dev.example.com")
    }

    @Test func anUnsetEnvironmentVariableFallsBackToCurrent() throws {
        let provider = try EnvironmentsHostProvider(
            environments: Self.environments,
            current: "stage",
            environmentVariable: "EXAMPLE_ENVIRONMENT",
            processEnvironment: ["OTHER": "dev"]
        )
        #expect(provider.current == "stage")
    }

    @Test func processEnvironmentIsIgnoredWithoutAVariableName() throws {
        let provider = try EnvironmentsHostProvider(
            environments: Self.environments,
            current: "stage",
            processEnvironment: ["EXAMPLE_ENVIRONMENT": "dev"]
        )
        #expect(provider.current == "stage")
    }

    @Test func anUnknownCurrentEnvironmentThrows() {
        #expect(throws: ApiError.invalidRequest(.unknownEnvironment("qa"))) {
            try EnvironmentsHostProvider(environments: Self.environments, current: "qa")
        }
    }

    @Test func anUnknownEnvironmentFromTheVariableThrows() {
        #expect(throws: ApiError.invalidRequest(.unknownEnvironment("qa"))) {
            try EnvironmentsHostProvider(
                environments: Self.environments,
                current: "prod",
                environmentVariable: "EXAMPLE_ENVIRONMENT",
                processEnvironment: ["EXAMPLE_ENVIRONMENT": "qa"]
            )
        }
    }

    @Test func selectSwitchesTheEnvironment() throws {
        let provider = try EnvironmentsHostProvider(environments: Self.environments, current: "prod")
        try provider.select("dev")
        #expect(provider.current == "dev")
        #expect(try provider.host(for: "api") == "https://dev.example.com")
        #expect(try provider.host(for: "cdn") == "https://cdn.dev.example.com")
        try provider.select("stage")
        #expect(try provider.host(for: "api") == "https://stage.example.com")
    }

    @Test func selectingAnUnknownEnvironmentThrowsAndKeepsTheCurrentOne() throws {
        let provider = try EnvironmentsHostProvider(environments: Self.environments, current: "prod")
        #expect(throws: ApiError.invalidRequest(.unknownEnvironment("qa"))) {
            try provider.select("qa")
        }
        #expect(provider.current == "prod")
        #expect(try provider.host(for: "api") == "https://api.example.com")
    }

    @Test func aKeyMissingFromTheCurrentEnvironmentThrows() throws {
        let provider = try EnvironmentsHostProvider(environments: Self.environments, current: "stage")
        #expect(throws: ApiError.invalidRequest(.unknownHostKey("cdn"))) {
            try provider.host(for: "cdn")
        }
        try provider.select("prod")
        #expect(try provider.host(for: "cdn") == "https://cdn.example.com")
    }

    @Test func concurrentSelectAndLookupAlwaysSeeAConfiguredHost() async throws {
        let provider = try EnvironmentsHostProvider(environments: Self.environments, current: "prod")
        let names = ["dev", "stage", "prod"]
        let allowed = Set(Self.environments.values.compactMap { $0["api"] })
        let seen = try await withThrowingTaskGroup(of: Set<String>.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var hosts = Set<String>()
                    for iteration in 0..<1000 {
                        if (task + iteration) % 3 == 0 {
                            try provider.select(names[(task + iteration) % names.count])
                        }
                        hosts.insert(try provider.host(for: "api"))
                        #expect(names.contains(provider.current))
                    }
                    return hosts
                }
            }
            var all = Set<String>()
            for try await hosts in group { all.formUnion(hosts) }
            return all
        }
        #expect(!seen.isEmpty)
        #expect(seen.isSubset(of: allowed))
    }
}
