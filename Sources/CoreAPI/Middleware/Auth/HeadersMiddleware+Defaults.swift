import Foundation

extension HeadersMiddleware {
    /// ``defaultHeaders``, each set only when the request has none.
    public static let defaults = HeadersMiddleware(defaultHeaders)

    /// `User-Agent` (``defaultUserAgent``), `Accept-Language` (``defaultAcceptLanguage``, left out when
    /// the system reports no language) and `Accept-Encoding` (``defaultAcceptEncoding``).
    public static let defaultHeaders: Headers = {
        var headers: Headers = ["User-Agent": defaultUserAgent]
        if !defaultAcceptLanguage.isEmpty {
            headers.add(defaultAcceptLanguage, for: "Accept-Language")
        }
        headers.add(defaultAcceptEncoding, for: "Accept-Encoding")
        return headers
    }()

    /// `<app>/<version> CoreAPI/<version> (<OS> <version>)`, such as
    /// `Notes/2.1 CoreAPI/1.0.0 (iOS 17.4.0)`: the app's name and short version from the main bundle,
    /// or the process name without a version where there is no bundle information (Linux).
    public static let defaultUserAgent: String = {
        let info = Bundle.main.infoDictionary ?? [:]
        let name = (info["CFBundleName"] ?? info["CFBundleExecutable"]) as? String
        return userAgent(
            appName: name ?? ProcessInfo.processInfo.processName,
            appVersion: info["CFBundleShortVersionString"] as? String,
            operatingSystem: operatingSystemName,
            operatingSystemVersion: ProcessInfo.processInfo.operatingSystemVersion
        )
    }()

    /// The system's preferred languages, at most six, with descending quality:
    /// `en-US;q=1.0, fr;q=0.9`. Empty when the system reports none.
    public static let defaultAcceptLanguage = acceptLanguage(for: Locale.preferredLanguages)

    /// `gzip, deflate`: the content codings `URLSession` decodes on every platform, Linux included.
    public static let defaultAcceptEncoding = "gzip, deflate"

    /// An `Accept-Language` value for `languages`, most preferred first: the first six, with qualities
    /// from `1.0` down by `0.1` each.
    /// - Parameter languages: Language tags such as `en-US`, most preferred first.
    /// - Returns: The value, such as `en-US;q=1.0, fr;q=0.9`; empty for no languages.
    public static func acceptLanguage(for languages: [String]) -> String {
        languages.prefix(6).enumerated()
            .map { index, language in "\(language);q=\(index == 0 ? "1.0" : "0.\(10 - index)")" }
            .joined(separator: ", ")
    }

    /// The version of CoreAPI in ``defaultUserAgent``.
    static let coreAPIVersion = "1.0.0"

    static func userAgent(
        appName: String,
        appVersion: String?,
        operatingSystem: String,
        operatingSystemVersion version: OperatingSystemVersion
    ) -> String {
        var product = productToken(appName)
        if product.isEmpty {
            product = "App"
        }
        if let appVersion, case let token = productToken(appVersion), !token.isEmpty {
            product += "/" + token
        }
        let system = "\(operatingSystem) \(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
        return "\(product) CoreAPI/\(coreAPIVersion) (\(system))"
    }

    /// `text` as an RFC 9110 token: other ASCII characters become `-`, the rest is dropped.
    static func productToken(_ text: String) -> String {
        var token = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where scalar.isASCII {
            token.append(HTTPMethod.isTokenCharacter(UInt8(scalar.value)) ? scalar : "-")
        }
        return String(token)
    }

    static var operatingSystemName: String {
        #if os(iOS)
            "iOS"
        #elseif os(macOS)
            "macOS"
        #elseif os(tvOS)
            "tvOS"
        #elseif os(watchOS)
            "watchOS"
        #elseif os(visionOS)
            "visionOS"
        #elseif os(Android)
            "Android"
        #elseif os(Linux)
            "Linux"
        #elseif os(Windows)
            "Windows"
        #else
            "Unknown"
        #endif
    }
}
