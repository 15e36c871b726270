import CoreAPI
import CoreAPIJSON
import Foundation

/// A small service module the imported HAR fixtures (`Fixtures/HAR`) replay against: the notes API that
/// Chromium, Firefox and mitmproxy captured.
enum Notes {
    /// A note.
    struct Note: JSONApiResponse, Equatable {
        let id: Int
        let title: String
        let done: Bool
    }

    /// A page of notes.
    struct Page: JSONApiResponse, Equatable {
        let notes: [Note]
    }

    /// What a login answers.
    struct LoginResult: JSONApiResponse, Equatable {
        let ok: Bool
    }

    /// `GET /notes?limit=&sort=`.
    struct List: NotesMethod {
        typealias Response = Page
        var path: String { "/notes" }
        let limit: Int
        let sort: String
    }

    /// `GET /notes/<id>`.
    struct Get: NotesMethod {
        typealias Response = Note
        @Excluded var id: Int
        var path: String { "/notes/\(id)" }
    }

    /// `POST /notes` with a JSON body.
    struct Create: NotesMethod {
        typealias Response = Note
        var httpMethod: HTTPMethod { .post }
        var path: String { "/notes" }
        let title: String
        let done: Bool
    }

    /// `POST /login` with a form body.
    struct LogIn: NotesMethod {
        typealias Response = LoginResult
        var httpMethod: HTTPMethod { .post }
        var path: String { "/login" }
        var parametersEncoding: any ParametersEncoding { QueryParametersEncoder() }
        let user: String
        let password: String
    }

    /// `GET /avatar`: bytes.
    struct Avatar: NotesMethod {
        typealias Response = Data
        var path: String { "/avatar" }
        func encode(to encoder: any Encoder) throws {}
    }
}

/// The notes module's methods share a host key.
protocol NotesMethod: ApiMethod {}

extension NotesMethod {
    var hostProviderKey: String { "notes" }
}
