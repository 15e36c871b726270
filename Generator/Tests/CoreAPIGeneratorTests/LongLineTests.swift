import CoreAPIGenerator
import Foundation
import Testing

/// Lines that long names and paths of large documents would make longer than 120 characters, broken as
/// swift-format breaks them.
@Suite("Generator: long lines")
struct LongLineTests {
    static let name = "AnErrorBodyWhoseNameIsLongEnoughToPushTheDecodingGuardPastTheLineLength"

    static let yaml = """
        openapi: 3.1.0
        info: {title: T, version: '1'}
        paths:
          /organizations/{organizationId}/projects/{projectId}/service-accounts/{serviceAccountId}/keys/{keyId}:
            get:
              operationId: getKey
              parameters:
                - {name: organizationId, in: path, required: true, schema: {type: string}}
                - {name: projectId, in: path, required: true, schema: {type: string}}
                - {name: serviceAccountId, in: path, required: true, schema: {type: string}}
                - {name: keyId, in: path, required: true, schema: {type: string}}
              responses:
                '204': {description: ok}
                '404':
                  description: missing
                  content: {application/json: {schema: {$ref: '#/components/schemas/\(name)'}}}
                5XX:
                  description: down
                  content: {application/json: {schema: {$ref: '#/components/schemas/\(name)Outage'}}}
        components:
          schemas:
            \(name)Outage: {type: object, properties: {retryAfter: {type: integer}}}
            \(name):
              type: object
              properties:
                codeScanningDelegatedAlertDismissalSetting:
                  type: string
                  enum: [enabled, disabled]
                  default: disabled
        """

    @Test("A decoding guard, a path, a decoded default and a type's conformances are broken over lines")
    func brokenLines() throws {
        let result = ServiceGenerator(document: try DocumentLoader.load(text: Self.yaml), familyName: "T").generate()
        for file in result.files {
            let long = file.contents.split(separator: "\n").filter { $0.count > 120 }
            #expect(long.isEmpty, "\(file.path): \(long)")
        }
        let method = try #require(result.files.first { $0.path == "Methods/GetKey.swift" }).contents
        let statusGuard = Self.lines(
            indent: 20,
            [
                "guard",
                "    let body = try? JSONDecoder().decode(",
                "        \(Self.name).self,",
                "        from: failure.body",
                "    )",
                "else {",
                "    return ApiError.unacceptableStatus(failure)",
                "}",
            ]
        )
        #expect(method.contains(statusGuard))
        let rangeGuard = Self.lines(
            indent: 12,
            [
                "guard",
                "    let body = try? JSONDecoder().decode(",
                "        \(Self.name)Outage.self,",
                "        from: failure.body",
                "    )",
                "else {",
                "    return nil",
                "}",
            ]
        )
        #expect(method.contains(rangeGuard))
        let path = Self.lines(
            indent: 4,
            [
                "var path: String {",
                "    \"/organizations/\\(Self.segment(organizationId))/projects/\\(Self.segment(projectId))/service-accounts\"",
                "        + \"/\\(Self.segment(serviceAccountId))/keys/\\(Self.segment(keyId))\"",
                "}",
            ]
        )
        #expect(method.contains(path))
        let model = try #require(result.files.first { $0.path == "Models/\(Self.name).swift" }).contents
        #expect(model.contains("struct \(Self.name): Codable, Hashable, Sendable,\n    JSONApiResponse\n{\n"))
        let decoding = Self.lines(
            indent: 8,
            [
                "self.codeScanningDelegatedAlertDismissalSetting =",
                "    try container.decodeIfPresent(",
                "        CodeScanningDelegatedAlertDismissalSetting.self,",
                "        forKey: .codeScanningDelegatedAlertDismissalSetting",
                "    ) ?? .disabled",
            ]
        )
        #expect(model.contains(decoding))
    }

    /// `lines`, each after `indent` spaces and ending in a line break.
    static func lines(indent: Int, _ lines: [String]) -> String {
        lines.map { String(repeating: " ", count: indent) + $0 + "\n" }.joined()
    }
}
