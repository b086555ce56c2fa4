/// The videos of one movie.
public struct VideoList: Codable, Sendable, Equatable {
    /// The movie's id.
    public let id: Int
    /// Its videos, in TMDB's order.
    public let results: [Video]
}
