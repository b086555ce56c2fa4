import Testing
import TestSupport

extension Trait where Self == ConditionTrait {
    /// Runs the test only when Scripts/test has started the fake TMDB server; otherwise reports
    /// why it skipped.
    static var needsFakeTMDB: Self {
        .enabled(if: TestServers.fakeTMDB != nil, Comment(rawValue: TestServers.skipReason))
    }

    /// Runs the test only when Scripts/test has built movie-db and named it in
    /// NETWORKLAYER_MOVIE_DB_BIN.
    static var needsMovieDBBinary: Self {
        .enabled(if: TestServers.movieDBBinary != nil, Comment(rawValue: TestServers.skipReason))
    }
}
