/// The keyed container of a ``TreeEncoder``: each key becomes an entry of an object node.
struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func key(_ key: Key) -> String {
        encoder.keyEncoding.convert(key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        encoder.set(.leaf(.null), forKey: self.key(key))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        // A leaf needs no encoder or node of its own; a failing one (a non-finite number) takes the long way,
        // so its error names the full coding path.
        if let leaf = try? encoder.commonLeaf(for: value) {
            encoder.set(.leaf(leaf), forKey: self.key(key))
            return
        }
        let child = encoder.child(for: key)
        try child.encodeValue(value)
        encoder.set(.node(child), forKey: self.key(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = encoder.child(for: key)
        encoder.set(.node(child), forKey: self.key(key))
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = encoder.child(for: key)
        encoder.set(.node(child), forKey: self.key(key))
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = encoder.child(for: nil)
        encoder.set(.node(child), forKey: "super")
        return child
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = encoder.child(for: key)
        encoder.set(.node(child), forKey: self.key(key))
        return child
    }
}
