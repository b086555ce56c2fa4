/// The details of one movie (`GET movie/{id}`).
public struct MovieDetails: Codable, Sendable, Equatable, Identifiable {
    /// TMDB's id.
    public let id: Int
    /// The title.
    public let title: String
    /// A paragraph about the plot; may be empty.
    public let overview: String
    /// `"1999-10-15"`, or `""` when not dated yet. See ``year``.
    public let releaseDate: String
    /// The length in minutes; `nil` when nobody has entered it yet.
    public let runtime: Int?
    /// The average vote, 0 to 10.
    public let voteAverage: Double
    /// The genres, with their names.
    public let genres: [Genre]
    /// The marketing line, e.g. "Mischief. Mayhem. Soap."; often empty.
    public let tagline: String?
    /// "Released", "Post Production", "Rumored", …
    public let status: String?
    /// The official site; often empty.
    public let homepage: String?
    /// The IMDb id, e.g. "tt0137523".
    public let imdbId: String?

    /// The release year, or `nil` when the release date is empty or unreadable.
    public var year: Int? { ReleaseDate.year(of: releaseDate) }
}
