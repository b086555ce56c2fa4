// Code of the DocC article "Defining an API"; see GettingStartedSnippets.swift.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

// snippet.start environment
enum NetworkEnvironment {
    case production
    case staging
    case local(port: Int)

    var baseURL: URL {
        switch self {
        case .production: return URL(string: "https://api.example.com/v1")!
        case .staging: return URL(string: "https://staging.example.com/v1")!
        case .local(let port): return URL(string: "http://127.0.0.1:\(port)/v1")!
        }
    }
}
// snippet.end

// snippet.start list-api
struct NewList: Encodable, Sendable {
    let name: String
    let description: String
}

enum ListApi {
    case lists(page: Int)
    case search(filter: Parameters)
    case create(NewList)
    case rename(id: Int, name: String)
    case login(user: String, password: String)
    case importCSV(Data)
    case delete(id: Int, reason: String)
}

extension ListApi: EndPointType {
    static let environment = NetworkEnvironment.staging

    var baseURL: URL { Self.environment.baseURL }

    var path: String {
        switch self {
        case .lists, .create: return "lists"
        case .search: return "lists/search"
        case .rename(let id, _), .delete(let id, _): return "lists/\(PathSegment(id))"
        case .login: return "session"
        case .importCSV: return "lists/import"
        }
    }

    var httpMethod: HTTPMethod {
        switch self {
        case .lists, .search: return .get
        case .create, .login, .importCSV: return .post
        case .rename: return .patch
        case .delete: return .delete
        }
    }

    var task: HTTPTask {
        switch self {
        case .lists(let page):
            return .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["page": page])
        case .search(let filter):
            return .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: filter)
        case .create(let list):
            return .requestJSONEncodable(list)
        case .rename(_, let name):
            return .requestParameters(bodyParameters: ["name": name], bodyEncoding: .json, urlParameters: nil)
        case .login(let user, let password):
            return .requestParameters(
                bodyParameters: ["user": user, "password": password], bodyEncoding: .urlForm, urlParameters: nil)
        case .importCSV(let data):
            return .requestData(data, contentType: "text/csv")
        case .delete(_, let reason):
            return .requestParametersAndHeaders(
                bodyParameters: nil, bodyEncoding: .json, urlParameters: nil,
                additionalHeaders: ["X-Reason": reason])
        }
    }

    var headers: HTTPHeaders? { ["Accept": "application/json"] }

    var timeout: TimeInterval {
        switch self {
        case .importCSV: return 300
        default: return 30
        }
    }
}
// snippet.end

// snippet.start custom-encoders
struct PrettyListApi: EndPointType {
    var baseURL: URL { URL(string: "https://api.example.com/v1")! }
    var path: String { "lists" }
    var httpMethod: HTTPMethod { .post }
    var headers: HTTPHeaders? { nil }

    var task: HTTPTask {
        .requestParameters(
            bodyParameters: ["name": "Weekend", "tags": ["a", "b"]],
            bodyEncoding: .custom(JSONParameterEncoder(outputFormatting: [.sortedKeys, .prettyPrinted])),
            urlParameters: ["ids": [1, 2], "draft": true])
    }

    // ids=1&ids=2&draft=true instead of ids%5B%5D=1&ids%5B%5D=2&draft=1
    var queryEncoder: URLParameterEncoder {
        URLParameterEncoder(arrayEncoding: .noBrackets, boolEncoding: .literal)
    }
}
// snippet.end

enum DefiningAnAPISnippets {
    static func nested() -> Parameters {
        // snippet.start nested-parameters
        let filter: Parameters = ["filter": ["min": 1, "tag": "x"] as Parameters]
        let ids: Parameters = ["ids": [1, "two"] as [any Sendable]]
        // snippet.end
        return filter.merging(ids) { first, _ in first }
    }

    static func inspect() throws {
        // snippet.start inspect-request
        let request = try RequestBuilder.makeRequest(for: ListApi.lists(page: 2))
        print(request.url!)  // https://staging.example.com/v1/lists?page=2
        print(request.cURLDescription())  // secrets redacted
        // snippet.end
    }

    static func environments() {
        // snippet.start router-environments
        let production = Router<ListApi>(mapping: .environment(NetworkEnvironment.production.baseURL))
        let local = Router<ListApi>(mapping: .environment(NetworkEnvironment.local(port: 8080).baseURL))
        // snippet.end
        _ = (production, local)
    }

    static func mapping() -> Router<ListApi> {
        // snippet.start endpoint-mapping
        let mapping = EndpointMapping<ListApi> { endpoint in
            var mapped = MappedEndpoint(endpoint)
                .adding(headers: ["X-Client": "lists-ios/3.2"])
                .adding(urlParameters: ["locale": "en-GB"])
            if case .importCSV = endpoint {
                mapped = mapped.replacing(timeout: 300)
            }
            return mapped
        }
        let router = Router<ListApi>(mapping: mapping)
        // snippet.end
        return router
    }

    static func multiTarget() async throws {
        // snippet.start multi-target
        let client = Router<MultiTarget>(plugins: [NetworkLoggerPlugin()])
        let lists = try await client.request(MultiTarget(ListApi.lists(page: 1)))
        let movie = try await client.request(MultiTarget(MovieApi.details(id: 550)), as: Movie.self)
        // snippet.end
        _ = (lists, movie)
    }
}
