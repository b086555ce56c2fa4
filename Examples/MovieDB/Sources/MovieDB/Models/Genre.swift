/// A genre with its name, as movie details carry them.
public struct Genre: Codable, Sendable, Equatable, Identifiable {
    /// TMDB's genre id, e.g. 18.
    public let id: Int
    /// The name, e.g. "Drama".
    public let name: String
}
