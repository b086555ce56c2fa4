import Foundation
import NetworkLayer

/// A trailer, teaser or clip of a movie (`GET movie/{id}/videos`).
public struct Video: Codable, Sendable, Equatable {
    /// The title of the video, e.g. "Official Trailer".
    public let name: String
    /// The id on the hosting site, e.g. a YouTube video id.
    public let key: String
    /// The hosting site: "YouTube" or "Vimeo".
    public let site: String
    /// "Trailer", "Teaser", "Clip", "Featurette", "Behind the Scenes", …
    public let type: String
    /// Whether the studio published it.
    public let official: Bool?
    /// When it was published, as ISO 8601 text.
    public let publishedAt: String?

    /// Where to watch it; `nil` for a site the example does not know or an empty key.
    public var url: URL? {
        guard !key.isEmpty else { return nil }
        switch site.lowercased() {
        case "youtube":
            var components = URLComponents()
            components.scheme = "https"
            components.host = "www.youtube.com"
            components.path = "/watch"
            // The key comes from the server: query items escape whatever it contains.
            components.queryItems = [URLQueryItem(name: "v", value: key)]
            return components.url
        case "vimeo":
            return URL(string: "https://vimeo.com/\(PathSegment(key))")
        default:
            return nil
        }
    }
}
