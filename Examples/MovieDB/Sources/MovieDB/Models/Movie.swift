/// A movie as TMDB lists it (popular, now playing, search, recommendations).
public struct Movie: Codable, Sendable, Equatable, Identifiable {
    /// TMDB's id, e.g. 550.
    public let id: Int
    /// The title in the request's language.
    public let title: String
    /// The title in the original language, e.g. "千と千尋の神隠し".
    public let originalTitle: String
    /// A paragraph about the plot; may be empty.
    public let overview: String
    /// The poster's path below TMDB's image base URL; `nil` when there is none.
    public let posterPath: String?
    /// The backdrop's path below TMDB's image base URL; `nil` when there is none.
    public let backdropPath: String?
    /// `"1999-10-15"`, or `""` for a movie not released or not dated yet. See ``year``.
    public let releaseDate: String
    /// Genre ids; empty when the movie is unclassified (TMDB then leaves the key out).
    public let genreIds: [Int]
    /// The average vote, 0 to 10; 0 with ``voteCount`` 0 means "not rated yet".
    public let voteAverage: Double
    /// How many votes ``voteAverage`` is made of.
    public let voteCount: Int
    /// TMDB's popularity score.
    public let popularity: Double
    /// Whether the movie is adult content.
    public let adult: Bool
    /// The ISO 639-1 code of the original language, e.g. "en".
    public let originalLanguage: String

    /// The release year, or `nil` when the release date is empty or unreadable.
    public var year: Int? { ReleaseDate.year(of: releaseDate) }
}

extension Movie {
    /// Decodes a movie. Only `id` and `title` are required: TMDB leaves other keys out of
    /// sparse records (`genre_ids` of unclassified movies, `release_date` in some search
    /// results), and such a movie is still worth showing. A key present with the wrong type
    /// still fails, which ``Page`` then counts as skipped.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        originalTitle = try container.decodeIfPresent(String.self, forKey: .originalTitle) ?? title
        overview = try container.decodeIfPresent(String.self, forKey: .overview) ?? ""
        posterPath = try container.decodeIfPresent(String.self, forKey: .posterPath)
        backdropPath = try container.decodeIfPresent(String.self, forKey: .backdropPath)
        releaseDate = try container.decodeIfPresent(String.self, forKey: .releaseDate) ?? ""
        genreIds = try container.decodeIfPresent([Int].self, forKey: .genreIds) ?? []
        voteAverage = try container.decodeIfPresent(Double.self, forKey: .voteAverage) ?? 0
        voteCount = try container.decodeIfPresent(Int.self, forKey: .voteCount) ?? 0
        popularity = try container.decodeIfPresent(Double.self, forKey: .popularity) ?? 0
        adult = try container.decodeIfPresent(Bool.self, forKey: .adult) ?? false
        originalLanguage = try container.decodeIfPresent(String.self, forKey: .originalLanguage) ?? ""
    }
}
