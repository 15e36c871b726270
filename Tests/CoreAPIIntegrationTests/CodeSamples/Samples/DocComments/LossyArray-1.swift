// LossyArray.swift, sample 1: declarations and statements, in the body of a function.
import CoreAPI
import CoreAPIJSON

private func sample(session: ApiSession) async throws {
    struct GetFeed: ApiMethod {
        typealias Response = Feed
        var hostProviderKey: String { "api" }
        var path: String { "/feed" }
    }

    struct Feed: JSONApiResponse {
        let title: String
        let posts: LossyArray<Post>
    }

    let feed = try await session.perform(GetFeed())
    for post in feed.posts { show(post) }
    if !feed.posts.dropped.isEmpty { report(feed.posts.dropped) }
}
