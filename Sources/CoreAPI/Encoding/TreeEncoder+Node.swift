/// The encoder as a node of the tree under construction: each encoder holds what was encoded into it,
/// and a container's entries refer to the encoders of nested values, so those can be filled later. One
/// object per node, encoder and storage alike.
extension TreeEncoder {
    /// An entry of a container: a finished leaf kept inline, or a node that may still be filled.
    enum Child {
        case leaf(ParameterValue)
        case node(TreeEncoder)

        var resolved: ParameterValue? {
            switch self {
            case .leaf(let value): value
            case .node(let node): node.resolved
            }
        }
    }

    enum Content {
        case empty
        case leaf(ParameterValue)
        case object([(key: String, child: Child)])
        case array([Child])
    }

    var resolved: ParameterValue? {
        switch content {
        case .empty: return nil
        case .leaf(let value): return value
        case .object(let entries):
            // Sized once: `compactMap` would grow its result step by step.
            var values: [(key: String, value: ParameterValue)] = []
            values.reserveCapacity(entries.count)
            for entry in entries {
                if let value = entry.child.resolved { values.append((entry.key, value)) }
            }
            return .object(values)
        case .array(let children):
            var values: [ParameterValue] = []
            values.reserveCapacity(children.count)
            for child in children {
                if let value = child.resolved { values.append(value) }
            }
            return .array(values)
        }
    }

    func set(_ child: Child, forKey key: String) {
        guard case .object(var entries) = content else {
            content = .object([(key, child)])
            return
        }
        content = .empty
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].child = child
        } else {
            entries.append((key, child))
        }
        content = .object(entries)
    }

    func append(_ child: Child) {
        guard case .array(var children) = content else {
            content = .array([child])
            return
        }
        content = .empty
        children.append(child)
        content = .array(children)
    }

    var childCount: Int {
        switch content {
        case .array(let children): children.count
        case .object(let entries): entries.count
        default: 0
        }
    }
}
