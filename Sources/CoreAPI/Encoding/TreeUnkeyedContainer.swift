/// The unkeyed container of a ``TreeEncoder``: each value becomes an element of an array node.
struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.childCount }

    private var nextKey: IndexKey { IndexKey(intValue: count) }

    mutating func encodeNil() throws {
        encoder.append(.leaf(.null))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // As in the keyed container: a leaf needs no encoder or node of its own.
        if let leaf = try? encoder.commonLeaf(for: value) {
            encoder.append(.leaf(leaf))
            return
        }
        let child = encoder.child(for: nextKey)
        try child.encodeValue(value)
        encoder.append(.node(child))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = encoder.child(for: nextKey)
        encoder.append(.node(child))
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = encoder.child(for: nextKey)
        encoder.append(.node(child))
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = encoder.child(for: nextKey)
        encoder.append(.node(child))
        return child
    }
}
