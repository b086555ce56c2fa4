// Code of README.md's "Usage in a minute". Scripts/check-doc-snippets checks that every swift
// block of the README (but its package manifest, which Scripts/check-install builds) appears
// verbatim between `snippet.start` and `snippet.end` markers in this folder. Built, never run.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

enum ReadmeSnippets {
    // snippet.start readme-api
    enum MovieApi: EndPointType {
        case popular(page: Int)
        case rate(id: Int, value: Double)

        var baseURL: URL { URL(string: "https://api.themoviedb.org/3")! }
        var path: String {
            switch self {
            case .popular: return "movie/popular"
            case .rate(let id, _): return "movie/\(PathSegment(id))/rating"
            }
        }
        var httpMethod: HTTPMethod { if case .rate = self { .post } else { .get } }
        var task: HTTPTask {
            switch self {
            case .popular(let page):
                return .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["page": page])
            case .rate(_, let value):
                return .requestParameters(bodyParameters: ["value": value], bodyEncoding: .json, urlParameters: nil)
            }
        }
        var headers: HTTPHeaders? { ["Accept": "application/json"] }
    }
    // snippet.end

    struct MoviePage: Decodable, Sendable {
        let page: Int
    }

    static func send() async throws {
        // snippet.start readme-send
        let router = Router<MovieApi>()

        let handle = router.request(.popular(page: 1)) { result in  // exactly once, on the main queue
            if case .success(let response) = result { print(response.statusCode, response.text) }
        }
        handle.cancel()  // this request only: its completion gets NetworkError.cancelled

        let page = try await router.request(.popular(page: 1), as: MoviePage.self)  // on the caller's actor
        // snippet.end
        _ = page
    }
}
