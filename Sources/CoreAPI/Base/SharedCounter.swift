/// A count that tasks share, such as the exchanges of one call so far.
///
/// A ``LockedValue`` of `Int` made and used inside CoreAPI, where its code is specialised: another module
/// using `LockedValue<Int>` itself runs the generic code, which looks up the storage class's metadata in
/// the runtime on every use.
package struct SharedCounter: Sendable {
    private let value = LockedValue(0)

    /// A counter at zero.
    package init() {}

    /// The count before this call; counts one more.
    package func next() -> Int {
        value.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}
