extension HTTPStatus {
    /// `100 Continue`.
    public static let `continue` = HTTPStatus(100)
    /// `101 Switching Protocols`.
    public static let switchingProtocols = HTTPStatus(101)
    /// `103 Early Hints`.
    public static let earlyHints = HTTPStatus(103)

    /// `200 OK`.
    public static let ok = HTTPStatus(200)
    /// `201 Created`.
    public static let created = HTTPStatus(201)
    /// `202 Accepted`.
    public static let accepted = HTTPStatus(202)
    /// `203 Non-Authoritative Information`.
    public static let nonAuthoritativeInformation = HTTPStatus(203)
    /// `204 No Content`.
    public static let noContent = HTTPStatus(204)
    /// `205 Reset Content`.
    public static let resetContent = HTTPStatus(205)
    /// `206 Partial Content`.
    public static let partialContent = HTTPStatus(206)

    /// `300 Multiple Choices`.
    public static let multipleChoices = HTTPStatus(300)
    /// `301 Moved Permanently`.
    public static let movedPermanently = HTTPStatus(301)
    /// `302 Found`.
    public static let found = HTTPStatus(302)
    /// `303 See Other`.
    public static let seeOther = HTTPStatus(303)
    /// `304 Not Modified`.
    public static let notModified = HTTPStatus(304)
    /// `307 Temporary Redirect`.
    public static let temporaryRedirect = HTTPStatus(307)
    /// `308 Permanent Redirect`.
    public static let permanentRedirect = HTTPStatus(308)

    /// `400 Bad Request`.
    public static let badRequest = HTTPStatus(400)
    /// `401 Unauthorized`.
    public static let unauthorized = HTTPStatus(401)
    /// `402 Payment Required`.
    public static let paymentRequired = HTTPStatus(402)
    /// `403 Forbidden`.
    public static let forbidden = HTTPStatus(403)
    /// `404 Not Found`.
    public static let notFound = HTTPStatus(404)
    /// `405 Method Not Allowed`.
    public static let methodNotAllowed = HTTPStatus(405)
    /// `406 Not Acceptable`.
    public static let notAcceptable = HTTPStatus(406)
    /// `407 Proxy Authentication Required`.
    public static let proxyAuthenticationRequired = HTTPStatus(407)
    /// `408 Request Timeout`.
    public static let requestTimeout = HTTPStatus(408)
    /// `409 Conflict`.
    public static let conflict = HTTPStatus(409)
    /// `410 Gone`.
    public static let gone = HTTPStatus(410)
    /// `411 Length Required`.
    public static let lengthRequired = HTTPStatus(411)
    /// `412 Precondition Failed`.
    public static let preconditionFailed = HTTPStatus(412)
    /// `413 Content Too Large`.
    public static let contentTooLarge = HTTPStatus(413)
    /// `414 URI Too Long`.
    public static let uriTooLong = HTTPStatus(414)
    /// `415 Unsupported Media Type`.
    public static let unsupportedMediaType = HTTPStatus(415)
    /// `416 Range Not Satisfiable`.
    public static let rangeNotSatisfiable = HTTPStatus(416)
    /// `417 Expectation Failed`.
    public static let expectationFailed = HTTPStatus(417)
    /// `421 Misdirected Request`.
    public static let misdirectedRequest = HTTPStatus(421)
    /// `422 Unprocessable Content`.
    public static let unprocessableContent = HTTPStatus(422)
    /// `423 Locked`.
    public static let locked = HTTPStatus(423)
    /// `424 Failed Dependency`.
    public static let failedDependency = HTTPStatus(424)
    /// `425 Too Early`.
    public static let tooEarly = HTTPStatus(425)
    /// `426 Upgrade Required`.
    public static let upgradeRequired = HTTPStatus(426)
    /// `428 Precondition Required`.
    public static let preconditionRequired = HTTPStatus(428)
    /// `429 Too Many Requests`.
    public static let tooManyRequests = HTTPStatus(429)
    /// `431 Request Header Fields Too Large`.
    public static let requestHeaderFieldsTooLarge = HTTPStatus(431)
    /// `451 Unavailable For Legal Reasons`.
    public static let unavailableForLegalReasons = HTTPStatus(451)

    /// `500 Internal Server Error`.
    public static let internalServerError = HTTPStatus(500)
    /// `501 Not Implemented`.
    public static let notImplemented = HTTPStatus(501)
    /// `502 Bad Gateway`.
    public static let badGateway = HTTPStatus(502)
    /// `503 Service Unavailable`.
    public static let serviceUnavailable = HTTPStatus(503)
    /// `504 Gateway Timeout`.
    public static let gatewayTimeout = HTTPStatus(504)
    /// `505 HTTP Version Not Supported`.
    public static let httpVersionNotSupported = HTTPStatus(505)
    /// `507 Insufficient Storage`.
    public static let insufficientStorage = HTTPStatus(507)
    /// `508 Loop Detected`.
    public static let loopDetected = HTTPStatus(508)
    /// `511 Network Authentication Required`.
    public static let networkAuthenticationRequired = HTTPStatus(511)

    /// The reason phrases of the registered codes (RFC 9110 and the IANA registry).
    static let registeredPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 103: "Early Hints",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
        413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
        416: "Range Not Satisfiable", 417: "Expectation Failed", 421: "Misdirected Request",
        422: "Unprocessable Content", 423: "Locked", 424: "Failed Dependency", 425: "Too Early",
        426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 507: "Insufficient Storage",
        508: "Loop Detected", 511: "Network Authentication Required",
    ]
}
