import Foundation
import NetworkLayer

extension MovieApi {
    /// TMDB's answer to this endpoint from the bundled samples: what offline mode shows, and a
    /// ready fixture for previews and tests.
    ///
    /// Every case answers, whatever its id, query or page, because offline mode must never fail:
    /// lists past their last page are empty (as on TMDB); a movie without a details sample gets
    /// details made from its list entry, or placeholder details that say so; a search with no
    /// matching sample title answers with the popular sample.
    public var sampleData: Data {
        switch self {
        case .popular(let page):
            return SampleCatalog.list(SampleResponses.popular, page: page)
        case .newMovies(let page):
            return SampleCatalog.list(SampleResponses.nowPlaying, page: page)
        case .recommended(let id, let page):
            return SampleCatalog.recommendations(for: id, page: page)
        case .video(let id):
            return Data(SampleResponses.videos(id: id).utf8)
        case .details(let id):
            return SampleCatalog.details(id: id)
        case .search(let query, let page):
            return SampleCatalog.search(query, page: page)
        case .configuration:
            return Data(SampleResponses.configuration.utf8)
        }
    }
}
