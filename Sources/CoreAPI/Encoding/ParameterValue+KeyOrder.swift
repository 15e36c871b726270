import Foundation

extension ParameterValue {
    /// `entries` sorted by the UTF-8 bytes of their keys: the key order of every CoreAPI encoder, the
    /// same on every platform and for every Unicode normalization. The keys are copied into one buffer
    /// first, so each comparison is a `memcmp`.
    static func sortedByKey(
        _ entries: [(key: String, value: ParameterValue)]
    ) -> [(key: String, value: ParameterValue)] {
        guard entries.count > 1 else { return entries }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.reduce(0) { $0 + $1.key.utf8.count })
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(entries.count)
        for entry in entries {
            let start = bytes.count
            bytes.append(contentsOf: entry.key.utf8)
            ranges.append(start..<bytes.count)
        }
        let order = bytes.withUnsafeBufferPointer { buffer in
            entries.indices.sorted { left, right in
                let (leftRange, rightRange) = (ranges[left], ranges[right])
                let common = min(leftRange.count, rightRange.count)
                if common > 0, let base = buffer.baseAddress {
                    let result = memcmp(base + leftRange.lowerBound, base + rightRange.lowerBound, common)
                    if result != 0 { return result < 0 }
                }
                return leftRange.count < rightRange.count
            }
        }
        return order.map { entries[$0] }
    }
}
