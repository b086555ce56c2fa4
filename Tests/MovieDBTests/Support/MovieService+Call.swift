import MovieDB
import NetworkLayer

extension MovieService {
    /// Calls the method that sends `api`; the error it throws, or `nil`. For tests that look at
    /// the request rather than the answer. A new case of `MovieApi` fails to compile here
    /// until it is added, so every endpoint stays covered.
    func call(_ api: MovieApi) async -> APIError? {
        switch api {
        case .popular(let page): return await apiError { () async throws(APIError) in try await popular(page: page) }
        case .newMovies(let page): return await apiError { () async throws(APIError) in try await newMovies(page: page) }
        case .recommended(let id, let page):
            return await apiError { () async throws(APIError) in try await recommended(id: id, page: page) }
        case .video(let id): return await apiError { () async throws(APIError) in try await videos(id: id) }
        case .details(let id): return await apiError { () async throws(APIError) in try await details(id: id) }
        case .search(let query, let page): return await apiError { () async throws(APIError) in try await search(query: query, page: page) }
        case .configuration: return await apiError { () async throws(APIError) in try await configuration() }
        }
    }
}
