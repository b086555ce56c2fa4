import Foundation

/// Builds the offline answers that are not stored verbatim in ``SampleResponses`` (other pages,
/// recommendations, searches, details of listed movies) from the stored ones, by decoding them
/// into the models and encoding the result back in TMDB's shape.
enum SampleCatalog {
    /// Every sample movie, popular first, each once.
    static let movies: [Movie] = {
        var seen = Set<Int>()
        return (movies(in: SampleResponses.popular) + movies(in: SampleResponses.nowPlaying))
            .filter { seen.insert($0.id).inserted }
    }()

    /// The stored list for page 1; an empty page after it, as TMDB answers past the last page.
    static func list(_ json: String, page: Int) -> Data {
        let data = Data(json.utf8)
        guard page != 1, let stored = try? TMDBCoding.makeDecoder().decode(Page<Movie>.self, from: data) else {
            return data
        }
        return encode(Page<Movie>(page: page, results: [], totalPages: stored.totalPages, totalResults: stored.totalResults))
    }

    /// Up to six other sample movies.
    static func recommendations(for id: Int, page: Int) -> Data {
        pageData(Array(movies.filter { $0.id != id }.prefix(6)), page: page)
    }

    /// The sample movies whose title or original title contains `query`, ignoring case and
    /// accents; the popular sample when none does; an empty page for an empty query (as TMDB).
    static func search(_ query: String, page: Int) -> Data {
        let needle = query.trimmingCharacters(in: .whitespaces)
        guard !needle.isEmpty else { return pageData([], page: page) }
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        let matches = movies.filter {
            $0.title.range(of: needle, options: options) != nil
                || $0.originalTitle.range(of: needle, options: options) != nil
        }
        return matches.isEmpty ? list(SampleResponses.popular, page: page) : pageData(matches, page: page)
    }

    /// The stored details; else details made from the movie's list entry; else a placeholder.
    static func details(id: Int) -> Data {
        if let json = SampleResponses.details[id] { return Data(json.utf8) }
        guard let movie = movies.first(where: { $0.id == id }) else {
            return encode(
                MovieDetails(
                    id: id, title: "Sample Movie \(id)",
                    overview: "No sample data is bundled for movie \(id). Set TMDB_ACCESS_TOKEN or TMDB_API_KEY to see TMDB's details.",
                    releaseDate: "", runtime: nil, voteAverage: 0, genres: [], tagline: nil, status: nil,
                    homepage: nil, imdbId: nil))
        }
        let genres = movie.genreIds.compactMap { id in SampleResponses.genreNames[id].map { Genre(id: id, name: $0) } }
        return encode(
            MovieDetails(
                id: movie.id, title: movie.title, overview: movie.overview, releaseDate: movie.releaseDate,
                runtime: nil, voteAverage: movie.voteAverage, genres: genres, tagline: nil,
                status: movie.year == nil ? "Planned" : "Released", homepage: nil, imdbId: nil))
    }

    /// A one-page list holding `results` on page 1, and nothing after.
    private static func pageData(_ results: [Movie], page: Int) -> Data {
        encode(
            Page<Movie>(
                page: page, results: page == 1 ? results : [], totalPages: 1,
                totalResults: results.count))
    }

    private static func movies(in json: String) -> [Movie] {
        (try? TMDBCoding.makeDecoder().decode(Page<Movie>.self, from: Data(json.utf8)))?.results ?? []
    }

    /// Encoding these plain structs cannot fail; were it to, the empty body would surface as a
    /// decoding error rather than a crash.
    private static func encode(_ value: some Encodable) -> Data {
        (try? TMDBCoding.makeEncoder().encode(value)) ?? Data()
    }
}
