/// Finds a property a method computes under the name of a setting that is not read from a method:
/// `var timeout: TimeInterval? { 1 }` or `var headers: [String: String]` would otherwise compile and be
/// ignored without a word.
///
/// Each such name is an ``ApiMethod`` requirement whose type is inferred from what the method declares
/// (`Void` when it declares nothing), so one metatype comparison per name tells whether the type
/// computes it. A stored property of that name — a parameter, or one behind a property wrapper such as
/// ``Excluded`` that the method reads itself — shows in its mirror and is allowed.
/// Found once per type (``MethodFacts``); the call then fails before anything is sent.
enum UnusedSettings {
    /// The first setting `M` declares under a name no call reads, with what to write instead; `nil`
    /// when there is none. `storedNames` are the labels of the type's stored properties.
    static func find<M: ApiMethod>(in type: M.Type, storedNames: Set<String>) -> ApiError.InvalidRequestReason? {
        if M.HeaderFields.self != Headers.self {
            return .unusedSetting(
                property: "headers",
                write: #"var headers: Headers { ["Name": "value"] }"#
            )
        }
        let named: [(name: String, declared: Any.Type, write: String)] = [
            ("method", M._Method.self, "var httpMethod: HTTPMethod { .post }"),
            ("timeout", M._Timeout.self, "var options: CallOptions { CallOptions(timeout: .seconds(10)) }"),
            ("deadline", M._Deadline.self, "var options: CallOptions { CallOptions(deadline: .seconds(30)) }"),
            (
                "acceptableStatusCodes", M._AcceptableStatusCodes.self,
                "var options: CallOptions { CallOptions(acceptableStatusCodes: [200, 404]) }"
            ),
            (
                "statusErrors", M._StatusErrors.self,
                "var options: CallOptions { CallOptions(statusErrors: [.notFound: YourError.notFound]) }"
            ),
            (
                "middlewares", M._Middlewares.self,
                "var options: CallOptions { CallOptions(middlewares: [YourMiddleware()]) }"
            ),
            (
                "cachePolicy", M._CachePolicy.self,
                "var options: CallOptions { CallOptions(cachePolicy: .revalidate) }"
            ),
            (
                "isLoggingEnabled", M._IsLoggingEnabled.self,
                "var options: CallOptions { CallOptions(isLoggingEnabled: false) }"
            ),
        ]
        for setting in named
        where setting.declared != Void.self && !storedNames.contains(setting.name)
            && !storedNames.contains("_" + setting.name)
        {
            return .unusedSetting(property: setting.name, write: setting.write)
        }
        return nil
    }
}
