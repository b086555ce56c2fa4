/// The body TMDB sends with a failure, e.g.
/// `{"success":false,"status_code":7,"status_message":"Invalid API key: You must be granted a valid key."}`.
///
/// ``MovieService`` reads ``statusMessage`` into every `APIError`'s `serverMessage`, so a user
/// sees TMDB's own explanation rather than just "401".
public struct TMDBError: Decodable, Sendable, Equatable {
    /// Always `false` when present.
    public let success: Bool?
    /// TMDB's own code: 7 invalid API key, 34 not found, 25 rate limited, …
    public let statusCode: Int
    /// TMDB's message.
    public let statusMessage: String
}
