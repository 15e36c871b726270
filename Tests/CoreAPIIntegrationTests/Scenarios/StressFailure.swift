/// A stress scenario that could not get going, with what it saw.
struct StressFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
