// swift-format-ignore-file
// The tutorial's endpoint file, as its readers wrote it. Changed: the base URLs (the local fake
// TMDB) and the API key. `MovieApi` is internal here; a `public enum` needs `public` on each
// member too, as with any protocol from another module (see ComingFromTheTutorial.md).
import Foundation
import NetworkLayer

enum NetworkEnvironment {
    case qa
    case production
    case staging
}

enum MovieApi {
    case recommended(id:Int)
    case popular(page:Int)
    case newMovies(page:Int)
    case video(id:Int)
}

extension MovieApi: EndPointType {

    var environmentBaseURL : String {
        switch NetworkManager.environment {
        case .production: return FakeTMDB.baseURL + "/movie/"
        case .qa: return FakeTMDB.baseURL + "/qa/movie/"
        case .staging: return FakeTMDB.baseURL + "/staging/movie/"
        }
    }

    var baseURL: URL {
        guard let url = URL(string: environmentBaseURL) else { fatalError("baseURL could not be configured.")}
        return url
    }

    var path: String {
        switch self {
        case .recommended(let id):
            return "\(id)/recommendations"
        case .popular:
            return "popular"
        case .newMovies:
            return "now_playing"
        case .video(let id):
            return "\(id)/videos"
        }
    }

    var httpMethod: HTTPMethod {
        return .get
    }

    // snippet.start tutorial-task
    var task: HTTPTask {
        switch self {
        case .newMovies(let page):
            return .requestParameters(bodyParameters: nil,
                                      urlParameters: ["page":page,
                                                      "api_key":NetworkManager.MovieAPIKey])
        default:
            return .request
        }
    }
    // snippet.end

    var headers: HTTPHeaders? {
        return nil
    }
}
