// Code of the DocC article "Getting started" (Sources/NetworkLayer/NetworkLayer.docc).
// Scripts/check-doc-snippets checks that every code block of the articles appears verbatim
// between `snippet.start` and `snippet.end` markers in this folder, so this file is what
// keeps the articles compiling. Nothing here is called: it is built, never run, so it sends
// nothing.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

// snippet.start movie-api
enum MovieApi {
    case popular(page: Int)
    case details(id: Int)
    case rate(id: Int, value: Double)
}

extension MovieApi: EndPointType {
    var baseURL: URL { URL(string: "https://api.themoviedb.org/3")! }

    var path: String {
        switch self {
        case .popular: return "movie/popular"
        case .details(let id): return "movie/\(PathSegment(id))"
        case .rate(let id, _): return "movie/\(PathSegment(id))/rating"
        }
    }

    var httpMethod: HTTPMethod {
        switch self {
        case .popular, .details: return .get
        case .rate: return .post
        }
    }

    var task: HTTPTask {
        switch self {
        case .popular(let page):
            return .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["page": page])
        case .details:
            return .request
        case .rate(_, let value):
            return .requestParameters(bodyParameters: ["value": value], bodyEncoding: .json, urlParameters: nil)
        }
    }

    var headers: HTTPHeaders? { ["Accept": "application/json"] }
}
// snippet.end

// snippet.start models
struct Movie: Decodable, Sendable {
    let id: Int
    let title: String
}

struct MoviePage: Decodable, Sendable {
    let page: Int
    let results: [Movie]
}
// snippet.end

enum GettingStartedSnippets {
    static func completion() {
        // snippet.start request-completion
        let router = Router<MovieApi>()

        let handle = router.request(.popular(page: 1)) { result in
            switch result {
            case .success(let response):
                print(response.statusCode, response.text)
            case .failure(let error):
                print(error.localizedDescription)
            }
        }
        // snippet.end

        // snippet.start cancel
        handle.cancel()  // this request only: its completion gets NetworkError.cancelled
        router.cancel()  // every request of this router that is still in flight
        // snippet.end
    }

    static func async() async throws {
        let router = Router<MovieApi>()
        // snippet.start request-async
        let response = try await router.request(.popular(page: 1))
        print(response.statusCode)

        let page = try await router.request(.popular(page: 1), as: MoviePage.self)
        print(page.results.map(\.title))
        // snippet.end
    }

    static func cancelTask() {
        let router = Router<MovieApi>()
        // snippet.start cancel-task
        let task = Task {
            try await router.request(.details(id: 550), as: Movie.self)
        }
        task.cancel()  // the request stops; the await throws NetworkError.cancelled
        // snippet.end
    }

    static func callbackQueue() {
        // snippet.start callback-queue
        let router = Router<MovieApi>(callbackQueue: DispatchQueue(label: "movie-db.callbacks"))
        // snippet.end
        _ = router
    }
}
