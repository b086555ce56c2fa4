import Foundation

/// The JSON coders for TMDB's snake_case keys (`poster_path` ⇄ `posterPath`).
///
/// Factories rather than shared instances: coders are mutable classes, and a shared one that a
/// caller reconfigures would change every other caller's decoding.
public enum TMDBCoding {
    /// A decoder for TMDB bodies: `.convertFromSnakeCase`, which the models rely on.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// An encoder that writes the models back in TMDB's shape, with sorted keys and indentation
    /// so that output is stable and diffable (`movie-db --json`).
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }
}
