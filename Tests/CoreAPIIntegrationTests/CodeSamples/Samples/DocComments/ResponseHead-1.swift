// ResponseHead.swift, sample 1.
import CoreAPI

private enum Sample {
    struct EngineFields: ResponseHead.FieldSource {
        let pairs: [(name: String, value: String)]
        var headers: Headers { Headers(pairs.map { Headers.Field(name: $0.name, value: $0.value) }) }
        func value(of name: String) -> String? { headers[name] }
    }
}
