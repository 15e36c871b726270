#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

extension Headers {
    /// The header fields of a response, ordered by name.
    public init(httpURLResponse response: HTTPURLResponse) {
        var fields: [Field] = []
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String {
                fields.append(Field(name: name, value: value))
            }
        }
        fields.sort { $0.name.lowercased() < $1.name.lowercased() }
        self.init(fields)
    }
}
