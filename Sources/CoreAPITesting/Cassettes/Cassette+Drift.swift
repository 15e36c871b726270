import Foundation

extension Cassette {
    /// How a live exchange differs from the entry a cassette recorded for the same request, as a
    /// ``Cassette`` in ``Cassette/Mode/verify`` mode finds it.
    ///
    /// Only what a service module relies on is compared, never values that change from call to call: the
    /// status, the header fields' names (not their values), and for JSON bodies their shape — each member's
    /// key and the type of its value (object, array, string, number, bool, null), at any depth, with an
    /// array's elements compared by its first. A field that turned from a number into a string is drift; a
    /// new user name is not.
    public struct Drift: Sendable, Hashable, CustomStringConvertible {
        /// The request, as `<method> <path>`.
        public var request: String
        /// What differs, one line each, such as `JSON $.id: recorded number, live string`.
        public var differences: [String]

        /// Creates a drift report.
        /// - Parameters:
        ///   - request: The request's method and path.
        ///   - differences: What differs.
        public init(request: String, differences: [String]) {
            self.request = request
            self.differences = differences
        }

        /// The request, then each difference on a line of its own.
        public var description: String {
            ([request] + differences.map { "  - \($0)" }).joined(separator: "\n")
        }

        /// How `live` differs from `recorded`.
        static func differences(recorded: Cassette.Player.Prepared, live: Cassette.Archive.Response) -> [String] {
            var differences: [String] = []
            if recorded.status != live.status {
                differences.append("status: recorded \(recorded.status), live \(live.status)")
            }
            let names = { (fields: [Cassette.Archive.Field]) in
                Set(fields.map { $0.name.lowercased() }.filter { !$0.hasPrefix(":") })
            }
            let (recordedNames, liveNames) = (names(recorded.fields), names(live.headers))
            let added = liveNames.subtracting(recordedNames).sorted()
            let removed = recordedNames.subtracting(liveNames).sorted()
            if !added.isEmpty { differences.append("header fields only live: \(added.joined(separator: ", "))") }
            if !removed.isEmpty {
                differences.append("header fields only recorded: \(removed.joined(separator: ", "))")
            }
            let json = { (data: Data?) in
                data.flatMap { try? JSONSerialization.jsonObject(with: $0, options: .fragmentsAllowed) }
            }
            if let recordedJSON = json(recorded.body), let liveJSON = json(try? live.content.bodyData()) {
                shapeDifferences(recordedJSON, liveJSON, path: "$", into: &differences)
            }
            return differences
        }

        /// Appends the differences of shape between two JSON values at `path`.
        private static func shapeDifferences(
            _ recorded: Any,
            _ live: Any,
            path: String,
            into differences: inout [String]
        ) {
            let (recordedType, liveType) = (typeName(recorded), typeName(live))
            guard recordedType == liveType else {
                differences.append("JSON \(path): recorded \(recordedType), live \(liveType)")
                return
            }
            if let recorded = recorded as? [String: Any], let live = live as? [String: Any] {
                for key in Set(recorded.keys).union(live.keys).sorted() {
                    switch (recorded[key], live[key]) {
                    case (let old?, let new?): shapeDifferences(old, new, path: "\(path).\(key)", into: &differences)
                    case (_?, nil): differences.append("JSON \(path).\(key): recorded, missing live")
                    case (nil, _?): differences.append("JSON \(path).\(key): new live")
                    case (nil, nil): break
                    }
                }
            } else if let recorded = recorded as? [Any], let live = live as? [Any], let old = recorded.first,
                let new = live.first
            {
                shapeDifferences(old, new, path: "\(path)[0]", into: &differences)
            }
        }

        /// A JSON value's type: `object`, `array`, `string`, `number`, `bool` or `null`.
        private static func typeName(_ value: Any) -> String {
            switch value {
            case is [String: Any]: return "object"
            case is [Any]: return "array"
            case is String: return "string"
            case is NSNull: return "null"
            case let number as NSNumber:
                // Foundation reads `true` and `false` as numbers of the Boolean type.
                return isBoolean(number) ? "bool" : "number"
            default: return "value"
            }
        }

        /// Whether a number JSONSerialization read was `true` or `false`.
        private static func isBoolean(_ number: NSNumber) -> Bool {
            #if canImport(Darwin)
                return CFGetTypeID(number) == CFBooleanGetTypeID()
            #else
                return type(of: number) == type(of: NSNumber(value: true))
            #endif
        }
    }
}
