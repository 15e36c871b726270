/// Decodes `Model` from inside its ``JSONApiResponse/envelope``, with the decoder's own strategies.
struct EnvelopeReader<Model: JSONApiResponse>: Decodable {
    /// The model at the envelope's path.
    let model: Model

    init(from decoder: any Decoder) throws {
        switch Model.envelope.rule {
        case .none:
            model = try Model(from: decoder)
        case .singleKey:
            let object = try Self.object(of: decoder)
            let keys = object.allKeys
            guard keys.count == 1, let key = keys.first else {
                throw JSONEnvelope.Failure.notASingleKey(keys: keys.map(\.stringValue).sorted())
            }
            model = try object.decode(Model.self, forKey: key)
        case .keys(let path):
            var object = try Self.object(of: decoder)
            for (index, name) in path.dropLast().enumerated() {
                let walked = path[...index].joined(separator: ".")
                guard object.contains(AnyKey(name)) else {
                    throw JSONEnvelope.Failure.missingKey(path: walked)
                }
                guard let inner = try? object.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(name)) else {
                    throw JSONEnvelope.Failure.notAnObject(path: walked)
                }
                object = inner
            }
            let last = AnyKey(path[path.count - 1])
            guard object.contains(last) else {
                throw JSONEnvelope.Failure.missingKey(path: path.joined(separator: "."))
            }
            model = try object.decode(Model.self, forKey: last)
        }
    }

    /// The top-level object, or the envelope error saying the body is not one.
    private static func object(of decoder: any Decoder) throws -> KeyedDecodingContainer<AnyKey> {
        do {
            return try decoder.container(keyedBy: AnyKey.self)
        } catch {
            throw JSONEnvelope.Failure.notAnObject(path: "")
        }
    }
}

/// Any key of a JSON object.
struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) {
        stringValue = string
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        return nil
    }
}
