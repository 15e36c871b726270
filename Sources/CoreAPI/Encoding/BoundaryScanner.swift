import Foundation

/// Thrown while writing a multipart body when the boundary occurs in a part; a new one is drawn.
struct BoundaryCollision: Error {}

/// Finds the boundary in content that arrives in chunks, including across chunk edges.
struct BoundaryScanner {
    let pattern: [UInt8]
    /// How far to move when a byte ends the current window (the Horspool shift table).
    private let skips: [Int]
    /// The last `pattern.count - 1` bytes seen, for matches that straddle two chunks.
    private var tail: [UInt8] = []

    init(pattern: Data) {
        self.pattern = Array(pattern)
        var skips = [Int](repeating: pattern.count, count: 256)
        for (index, byte) in self.pattern.dropLast().enumerated() {
            skips[Int(byte)] = self.pattern.count - 1 - index
        }
        self.skips = skips
    }

    mutating func reset() {
        tail = []
    }

    func check(_ data: Data) throws {
        if contains(data) { throw BoundaryCollision() }
    }

    mutating func scan(_ chunk: Data) throws {
        let overlap = pattern.count - 1
        if !tail.isEmpty {
            // Only the joint needs a second look: the tail plus the chunk's first bytes.
            let joint = tail + chunk.prefix(overlap)
            if contains(joint) { throw BoundaryCollision() }
        }
        if contains(chunk) { throw BoundaryCollision() }
        if chunk.count >= overlap {
            tail = Array(chunk.suffix(overlap))
        } else {
            tail = Array((tail + chunk).suffix(overlap))
        }
    }

    /// Whether `haystack` contains the pattern (Boyer–Moore–Horspool: most steps skip a whole
    /// pattern length, so a 1 GiB file is scanned in a fraction of the time it takes to copy).
    private func contains(_ haystack: some ContiguousBytes) -> Bool {
        let count = pattern.count
        return haystack.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            guard buffer.count >= count else { return false }
            return pattern.withUnsafeBufferPointer { needle in
                let last = count - 1
                var position = 0
                while position + count <= buffer.count {
                    let byte = buffer[position + last]
                    if byte == needle[last] {
                        var index = last - 1
                        while index >= 0, buffer[position + index] == needle[index] {
                            index -= 1
                        }
                        if index < 0 { return true }
                    }
                    position += skips[Int(byte)]
                }
                return false
            }
        }
    }
}
