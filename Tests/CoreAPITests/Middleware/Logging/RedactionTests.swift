import CoreAPI
import Foundation
import Testing

@Suite struct RedactionTests {
    let redaction = Secrets.Redaction()

    @Test(arguments: [
        ("password", true), ("PASSWORD", true), ("Password", true), ("passwd", true), ("api_key", true),
        ("apiKey", true), ("API-KEY", true), ("accessToken", true), ("access-token", true), ("client_secret", true),
        ("user[password]", true), ("user[password][]", true), ("password[0]", true), ("a[b][refresh_token]", true),
        ("token_type", false), ("passwords", false), ("tokens[0]", false), ("password_hint", false), ("code", false),
        ("user", false), ("", false), ("[]", false),
    ])
    func parameterKeysMatchWholeIgnoringCaseUnderscoresAndDashes(key: String, isSecret: Bool) {
        #expect(redaction.isSecretParameter(key) == isSecret)
    }

    @Test func configuredParameterKeysAddToOrReplaceTheDefaults() {
        let added = Secrets.Redaction(secretParameterKeys: ["Code", "pin"])
        #expect(added.isSecretParameter("code"))
        #expect(added.isSecretParameter("PIN"))
        #expect(added.isSecretParameter("password"))
        #expect(added.secretParameterKeys == Secrets.Redaction.defaultSecretParameterKeys.union(["code", "pin"]))
        let only = Secrets.Redaction(secretParameterKeys: ["pin"], includesDefaultParameterKeys: false)
        #expect(only.isSecretParameter("pin"))
        #expect(!only.isSecretParameter("password"))
        #expect(only.secretParameterKeys == ["pin"])
    }

    @Test func headerNamesAlwaysIncludeTheStandardSecretsAndIgnoreCase() {
        let custom = Secrets.Redaction(secretHeaderNames: ["X-Api-Key"])
        #expect(
            custom.secretHeaderNames == ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"]
        )
        for name in ["Authorization", "PROXY-AUTHORIZATION", "cookie", "Set-Cookie", "x-API-key"] {
            #expect(custom.isSecretHeader(name), "\(name)")
        }
        #expect(!custom.isSecretHeader("X-Api-Keys"))
        #expect(!redaction.isSecretHeader("X-Api-Key"))
    }

    @Test func headerValuesAreReplacedAndURLValuesRedacted() {
        let headers: Headers = [
            "authorization": "Bearer SECRET-TOKEN", "X-Api-Key": "KEY-SECRET", "Accept": "*/*",
            "Location": "https://u:URL-SECRET@api.test/next?token=SECRET-TOKEN&page=2", "Content-Location": "/a?b=c",
            "Referer": "https://a.test/from?password=PASSWORD-SECRET",
        ]
        let redacted = Secrets.Redaction(secretHeaderNames: ["x-api-key"]).redact(headers)
        #expect(
            redacted
                == [
                    "authorization": "<redacted>", "X-Api-Key": "<redacted>", "Accept": "*/*",
                    "Location": "https://<redacted>@api.test/next?token=<redacted>&page=2",
                    "Content-Location": "/a?b=c",
                    "Referer": "https://a.test/from?password=<redacted>",
                ]
        )
    }

    @Test(arguments: [
        ("https://api.test/p?q=1&password=PASSWORD-SECRET&x", "https://api.test/p?q=1&password=<redacted>&x"),
        ("https://api.test/p?user%5Bpassword%5D=PASSWORD-SECRET", "https://api.test/p?user%5Bpassword%5D=<redacted>"),
        ("https://api.test/p?pass+word=1&token=", "https://api.test/p?pass+word=1&token="),
        ("https://user:URL-SECRET@api.test:8443/p", "https://<redacted>@api.test:8443/p"),
        ("https://user@api.test/p", "https://<redacted>@api.test/p"),
        (
            "http://u:p@[::1]:8080/x?password=PASSWORD-SECRET#token=T",
            "http://<redacted>@[::1]:8080/x?password=<redacted>#token=<redacted>"
        ),
        ("https://api.test/plain/path", "https://api.test/plain/path"),
        (
            "https://api.test/cb#access_token=SECRET-TOKEN&state=s",
            "https://api.test/cb#access_token=<redacted>&state=s"
        ),
        ("https://api.test/a%20b?Token=a%26b&q=%C3%A9", "https://api.test/a%20b?Token=<redacted>&q=%C3%A9"),
    ])
    func urlsLoseUserInformationAndSecretParameterValues(url: String, expected: String) throws {
        #expect(redaction.redact(try #require(URL(string: url))) == expected)
    }

    @Test func jsonBodiesAreRedactedAtAnyDepthAndWrittenWithSortedKeys() {
        let body = Data(
            #"""
            {"user": "ada", "password": "PASSWORD-SECRET", "session": {"refreshToken": "R-SECRET", "ttl": 3600},
             "devices": [{"apiKey": {"value": "K-SECRET"}, "name": "phone"}], "token": null, "secret": "",
             "url": "https://a.test/x", "note": "repeats PASSWORD-SECRET"}
            """#.utf8
        )
        #expect(
            redaction.redact(body, contentType: "application/json; charset=utf-8")
                == #"{"devices":[{"apiKey":"<redacted>","name":"phone"}],"note":"repeats <redacted>","#
                + #""password":"<redacted>","secret":"","session":{"refreshToken":"<redacted>","ttl":3600},"#
                + #""token":null,"url":"https://a.test/x","user":"ada"}"#
        )
    }

    @Test func secretNumbersAreHiddenElsewhereButBooleansAreNot() {
        let body = Data(#"{"pin":987654,"ref":"order 987654","token":true,"note":"true story"}"#.utf8)
        #expect(
            Secrets.Redaction(secretParameterKeys: ["pin"]).redact(body, contentType: "application/json")
                == #"{"note":"true story","pin":"<redacted>","ref":"order <redacted>","token":"<redacted>"}"#
        )
    }

    @Test(arguments: ["application/json", "application/problem+json", "TEXT/JSON", "application/vnd.api+json; v=1"])
    func jsonThatDoesNotParseIsNeverPrinted(contentType: String) {
        let body = Data(#"{"password": "PASSWORD-SECRET""#.utf8)
        let essence = contentType.split(separator: ";")[0].lowercased()
        #expect(redaction.redact(body, contentType: contentType) == "<30 bytes, \(essence), not valid JSON>")
    }

    @Test func formBodiesAreRedactedByKey() {
        let body = Data("user=ada&password=PASSWORD-SECRET&user%5Bapi_key%5D=K&empty=&token&a=b=c".utf8)
        #expect(
            redaction.redact(body, contentType: "application/x-www-form-urlencoded")
                == "user=ada&password=<redacted>&user%5Bapi_key%5D=<redacted>&empty=&token&a=b=c"
        )
    }

    @Test(arguments: [
        (
            "multipart/form-data; boundary=x", Data("--x\r\n\r\npassword\r\n--x--".utf8),
            "<22 bytes, multipart/form-data>"
        ),
        ("image/png", Data([0x89, 0x50]), "<2 bytes, image/png>"),
        ("application/octet-stream", Data("text".utf8), "<4 bytes, application/octet-stream>"),
        ("text/plain", Data([0xFF, 0xFE]), "<2 bytes, text/plain>"),
        ("text/plain", Data("a\u{1}b".utf8), "<3 bytes, text/plain>"),
        ("text/plain; charset=utf-8", Data("password=visible in text".utf8), "password=visible in text"),
        ("application/xml", Data("<a>é</a>".utf8), "<a>é</a>"),
    ])
    func nonJSONBodiesAreTextOrOnlyTheirSize(contentType: String, body: Data, expected: String) {
        #expect(redaction.redact(body, contentType: contentType) == expected)
    }

    @Test func bodiesWithoutATypeAreSniffed() {
        #expect(redaction.redact(Data(#" [{"token":"T"}]"#.utf8), contentType: nil) == #"[{"token":"<redacted>"}]"#)
        #expect(
            redaction.redact(Data("password=PASSWORD-SECRET&a=1".utf8), contentType: nil) == "password=<redacted>&a=1"
        )
        #expect(redaction.redact(Data("{not json".utf8), contentType: nil) == "{not json")
        #expect(redaction.redact(Data([0, 1, 2]), contentType: nil) == "<3 bytes>")
        #expect(redaction.redact(Data(), contentType: "application/json") == "")
    }

    @Test func oversizedJSONIsNotParsed() {
        var body = Data(#"{"password":"PASSWORD-SECRET","pad":""#.utf8)
        body.append(Data(repeating: 0x61, count: Secrets.Redaction.maximumRedactedBodySize))
        body.append(Data(#""}"#.utf8))
        #expect(
            redaction.redact(body, contentType: "application/json")
                == "<\(body.count) bytes, application/json, too large to redact>"
        )
    }
}
