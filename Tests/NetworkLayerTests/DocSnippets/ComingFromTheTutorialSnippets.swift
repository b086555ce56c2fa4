// Code of the DocC article "Coming from the tutorial" that is not the tutorial's own (that code
// is in Tests/TutorialTests/App, compiled in the Swift 5 language mode). Built, never run.
import Foundation
import NetworkLayer

// snippet.start tutorial-public-enum
public enum PublicMovieApi {
    case popular(page: Int)
}

extension PublicMovieApi: EndPointType {
    public var baseURL: URL { URL(string: "https://api.themoviedb.org/3/movie/")! }
    public var path: String { "popular" }
    public var httpMethod: HTTPMethod { .get }
    public var task: HTTPTask { .request }
    public var headers: HTTPHeaders? { nil }
}
// snippet.end
