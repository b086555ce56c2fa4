import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MovieDB
import NetworkLayer
import Testing

/// A transport that counts what reaches it and refuses it: offline, nothing may.
private final class RefusingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent: [URLRequest] = []

    var count: Int { lock.withLock { sent.count } }

    func execute(_ request: URLRequest, body: UploadBody?, progress: @escaping TransferProgressHandler) async throws -> StreamedResponse {
        lock.withLock { sent.append(request) }
        throw URLError(.notConnectedToInternet)
    }

    func headersAdded(to request: URLRequest) -> HTTPHeaders? { [:] }
}

/// Offline mode: no credential, every answer from the bundled samples, through the same router.
@Suite("MovieService offline, from the bundled samples")
struct OfflineServiceTests {
    private let transport = RefusingTransport()
    private var service: MovieService {
        MovieService(configuration: TMDBConfiguration(credential: nil), transport: transport)
    }

    @Test("Popular is the bundled page, awkward movies included, and nothing is sent")
    func popular() async throws {
        let page = try await service.popular()

        #expect(
            page.results.map(\.title) == [
                "Fight Club", "Inception", "Interstellar", "The Dark Knight", "Spirited Away", "Amélie",
                "Paper Boats", "Untitled Denis Villeneuve Project",
            ])
        #expect(page.page == 1)
        #expect(page.totalResults == 8)
        #expect(page.skippedResults == 0)
        let paperBoats = try #require(page.results.first { $0.title == "Paper Boats" })
        #expect(paperBoats.posterPath == nil)
        let untitled = try #require(page.results.last)
        #expect(untitled.releaseDate == "")
        #expect(untitled.year == nil)
        #expect(untitled.genreIds == [])
        #expect(page.results.first { $0.id == 129 }?.originalTitle == "千と千尋の神隠し")
        #expect(transport.count == 0)
    }

    @Test("Now playing is the bundled now-playing page")
    func newMovies() async throws {
        let page = try await service.newMovies()
        #expect(page.results.first?.title == "Dune: Part Two")
        #expect(page.results.contains { $0.title == "Emilia Pérez" })
        #expect(page.results.count == 8)
        #expect(transport.count == 0)
    }

    @Test("Pages after the last are empty, as on TMDB")
    func laterPagesAreEmpty() async throws {
        let page = try await service.popular(page: 2)
        #expect(page.page == 2)
        #expect(page.results.isEmpty)
        #expect(page.totalPages == 1)
    }

    @Test("Details of Fight Club are the bundled details")
    func fightClubDetails() async throws {
        let details = try await service.details(id: 550)
        #expect(details.title == "Fight Club")
        #expect(details.runtime == 139)
        #expect(details.tagline == "Mischief. Mayhem. Soap.")
        #expect(details.genres.map(\.name) == ["Drama"])
    }

    @Test("Details of a listed movie without its own sample are made from its list entry")
    func detailsFromListEntry() async throws {
        let details = try await service.details(id: 157336)
        #expect(details.title == "Interstellar")
        #expect(details.year == 2014)
        #expect(details.genres.map(\.name) == ["Adventure", "Drama", "Science Fiction"])
    }

    @Test("Details of any other id are a placeholder for that id, never a failure")
    func detailsOfUnknownID() async throws {
        let details = try await service.details(id: 987654)
        #expect(details.id == 987654)
        #expect(details.title == "Sample Movie 987654")
    }

    @Test("Videos have a YouTube and a Vimeo link")
    func videos() async throws {
        let list = try await service.videos(id: 550)
        #expect(list.id == 550)
        #expect(
            list.results.map(\.url?.absoluteString) == [
                "https://www.youtube.com/watch?v=BdJKm16Co6M", "https://vimeo.com/76979871",
            ])
    }

    @Test("Search finds sample titles, ignoring case and accents")
    func search() async throws {
        #expect(try await service.search(query: "INCEPTION").results.map(\.title) == ["Inception"])
        #expect(try await service.search(query: "amelie").results.map(\.title) == ["Amélie"])
    }

    @Test("A search without a matching sample still answers, with the popular sample")
    func searchWithoutMatch() async throws {
        let page = try await service.search(query: "zzzz no such film")
        #expect(page.results.first?.title == "Fight Club")
    }

    @Test("The configuration is the bundled one, with TMDB's image host and sizes")
    func configuration() async throws {
        let configuration = try await service.configuration()
        #expect(configuration.images.secureBaseUrl == "https://image.tmdb.org/t/p/")
        #expect(configuration.images.posterSizes == ["w92", "w154", "w185", "w342", "w500", "w780", "original"])
        #expect(configuration.images.backdropSizes.last == "original")
        #expect(transport.count == 0)
    }

    @Test("Recommendations are other sample movies")
    func recommendations() async throws {
        let page = try await service.recommended(id: 550)
        #expect(page.results.first?.title == "Inception")
        #expect(!page.results.contains { $0.id == 550 })
        #expect(page.results.count == 6)
        #expect(transport.count == 0)
    }
}
