// Code of the DocC article "Handling responses and errors"; see GettingStartedSnippets.swift.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkLayer

// TMDB's own key names, as the README's example has them.
// swift-format-ignore: AlwaysUseLowerCamelCase
// snippet.start tmdb-error
struct TMDBError: Decodable, Sendable {
    let status_code: Int
    let status_message: String
}
// snippet.end

enum ResponsesAndErrorsSnippets {
    static func show(_ movies: [Movie]) {}

    static func largerBodies() -> Router<MovieApi> {
        // snippet.start maximum-response-size
        let router = Router<MovieApi>(transport: URLSessionTransport(maximumResponseSize: 128 * 1_048_576))
        // snippet.end
        return router
    }
    static func retry(after seconds: TimeInterval) {}

    static func manager() async {
        // snippet.start manager
        let manager = NetworkManager(
            router: Router<MovieApi>(),
            errorMessage: .json(TMDBError.self, \.status_message))

        switch await manager.request(.popular(page: 1), as: MoviePage.self) {
        case .success(let page):
            show(page.results)
        case .failure(.authentication(let failure)):  // 401, 403
            print(failure.serverMessage ?? "log in")
        case .failure(.rateLimited(let failure)):  // 429
            retry(after: failure.retryAfter?.delay() ?? 1)
        case .failure(.failed(.cancelled)):
            break
        case .failure(let error):
            print(error.localizedDescription)
        }
        // snippet.end
    }

    static func managerThrowing() async throws {
        let manager = NetworkManager(router: Router<MovieApi>())
        // snippet.start manager-value
        let movie = try await manager.value(for: .details(id: 550), as: Movie.self)
        print(movie.title)
        // snippet.end

        // snippet.start manager-completion
        let handle = manager.request(.popular(page: 2), as: MoviePage.self) { result in
            if case .success(let page) = result { print(page.results.count) }
        }
        handle.cancel()
        // snippet.end
    }

    static func decoding() async throws {
        let router = Router<MovieApi>()
        // snippet.start decode
        let response = try await router.request(.details(id: 550))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let movie = try response.decode(Movie.self, using: decoder)
        print(movie.title)

        // An empty body is nil for an optional type, and EmptyResponse for "no content".
        let maybe = try response.decode(Movie?.self)
        let nothing = try response.decode(EmptyResponse.self)
        print(maybe as Any, nothing)
        // snippet.end
    }

    static func networkErrors() async {
        let router = Router<MovieApi>()
        // snippet.start network-error
        do {
            let page = try await router.request(.popular(page: 1), as: MoviePage.self)
            print(page.results.count)
        } catch {
            switch error {
            case .unacceptableStatusCode(let response):
                print(response.statusCode, response.text, response.retryAfter as Any)
            case .decoding(let underlying, let response):
                print(error.codingPath ?? "", underlying, response.text)
            case .timedOut(let seconds):
                print("no answer within \(seconds) s")
            case .cancelled:
                break
            case .transport(let urlError):
                print(urlError.code)
            case .invalidRequest(let buildError):
                print(buildError)
            case .download(let downloadError):
                print(downloadError.localizedDescription)
            case .stream(let streamError):
                print(streamError.localizedDescription)
            case .cache(let cacheError):
                print(cacheError.localizedDescription)  // .notCached under .returnCacheDataDontLoad
            case .responseTooLarge(let limit):
                print("more than \(limit) bytes: use a download or a stream")
            case .underlying(let other):
                print(other)
            }
        }
        // snippet.end
    }
}
