/// A call's settings, resolved in one place: the session's defaults, the method's options and the call's
/// own, and the middlewares they add to the session's.
extension ApiSession {
    /// The settings of a call of `method`: ``defaults``, then the method's ``ApiMethod/options``, then
    /// the call's `options`, each on top of the one before. The method's options are read once here, and
    /// nothing after it reads them again.
    func settings<M: ApiMethod>(for method: M, overriding options: CallOptions? = nil) -> CallOptions {
        var settings = method.options
        if mergesDefaults {
            settings = defaults.merging(settings)
        }
        if let options {
            settings = settings.merging(options)
        }
        return settings
    }

    /// The session's middlewares followed by the call's; the session's own array when the call adds none.
    func middlewareChain(for settings: CallOptions) -> [any Middleware] {
        let own = settings.middlewares
        return own.isEmpty ? middlewares : middlewares + own
    }
}
