import Foundation

/// TMDB's `GET configuration`: where images are served and in which sizes.
///
/// Movies carry only a path such as `/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg`; a poster's URL is
/// ``Images/secureBaseUrl`` + a size from ``Images/posterSizes`` + that path. The answer rarely
/// changes, so TMDB lets clients cache it, and ``MovieService`` does.
///
/// ```swift
/// let images = try await service.configuration().images
/// let poster = images.secureBaseUrl + (images.posterSizes.first ?? "original") + "/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg"
/// ```
public struct APIConfiguration: Codable, Sendable, Equatable {
    /// The image host and sizes.
    public let images: Images

    /// The image part of the configuration; the other keys are left out.
    public struct Images: Codable, Sendable, Equatable {
        /// The https base of image URLs, e.g. `https://image.tmdb.org/t/p/`.
        public let secureBaseUrl: String
        /// Poster widths, e.g. `["w92", …, "original"]`.
        public let posterSizes: [String]
        /// Backdrop widths, e.g. `["w300", …, "original"]`.
        public let backdropSizes: [String]
    }
}
