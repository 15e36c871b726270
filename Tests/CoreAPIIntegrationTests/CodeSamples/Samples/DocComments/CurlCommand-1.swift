// CurlCommand.swift, sample 1: statements, in the body of a function.
import CoreAPI

private func sample(request: ApiRequest) {
    print(request.curlCommand())
    // curl -X POST 'https://api.example.com/login' -H 'Content-Type: application/json' --data-binary '{"password":"<redacted>","user":"ada"}'
}
