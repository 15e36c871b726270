import OpenAPIKit

extension ServiceGenerator {
    /// `diagnostics` with each (location, message) once, in document order: by the top-level section of the
    /// location, then by the path or component it names as the document lists them, then as they were reported.
    ///
    /// A construct can be met more than once (a component schema used by an operation is built for the
    /// operation and again for its own file), and each meeting reports it; the list says it once.
    func documentOrdered(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        let unique = diagnostics.filter { seen.insert($0).inserted }
        let pathIndex = Dictionary(
            document.paths.keys.enumerated().map { ($0.element.rawValue, $0.offset) },
            uniquingKeysWith: { first, _ in first }
        )
        let schemaIndex = Dictionary(
            document.components.schemas.keys.enumerated().map { ($0.element.rawValue, $0.offset) },
            uniquingKeysWith: { first, _ in first }
        )
        func key(_ location: String) -> [Int] {
            let tokens = location.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
            guard let section = tokens.first else { return [-1] }
            let sections = ["info", "servers", "paths", "webhooks", "components", "security", "tags"]
            let rank = sections.firstIndex(of: section) ?? sections.count
            guard tokens.count > 1 else { return [rank] }
            switch section {
            case "paths":
                return [rank, pathIndex[tokens[1]] ?? Int.max]
            case "components":
                let kinds = [
                    "schemas", "responses", "parameters", "examples", "requestBodies", "headers", "securitySchemes",
                    "links", "callbacks", "pathItems",
                ]
                let kind = kinds.firstIndex(of: tokens[1]) ?? kinds.count
                guard tokens.count > 2, tokens[1] == "schemas" else { return [rank, kind] }
                return [rank, kind, schemaIndex[tokens[2]] ?? Int.max]
            default:
                return [rank]
            }
        }
        return unique.enumerated()
            .map { (key: key($0.element.location) + [$0.offset], diagnostic: $0.element) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
            .map(\.diagnostic)
    }
}
