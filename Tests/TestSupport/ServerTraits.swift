import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test only when Scripts/test has started httpbin; otherwise reports why it skipped.
    public static var needsHTTPBin: Self {
        .enabled(if: TestServers.httpbin != nil, Comment(rawValue: TestServers.skipReason))
    }

    /// Runs the test only when Scripts/test has started the fixture server.
    public static var needsFixtureServer: Self {
        .enabled(if: TestServers.fixture != nil, Comment(rawValue: TestServers.skipReason))
    }

    /// Runs the test only when Scripts/test has started the streaming fixture server.
    public static var needsStreamServer: Self {
        .enabled(if: TestServers.stream != nil, Comment(rawValue: TestServers.skipReason))
    }

    /// Runs the test only when Scripts/test has started the fake TMDB server.
    public static var needsFakeTMDB: Self {
        .enabled(if: TestServers.fakeTMDB != nil, Comment(rawValue: TestServers.skipReason))
    }

    /// Runs the test only when Scripts/test has built movie-db and named it in
    /// NETWORKLAYER_MOVIE_DB_BIN.
    public static var needsMovieDBBinary: Self {
        .enabled(if: TestServers.movieDBBinary != nil, Comment(rawValue: TestServers.skipReason))
    }

    /// Runs the test only in the child process that ``ChildProcess/run(workload:filter:timeout:)``
    /// started for `workload`.
    public static func childWorkload(_ workload: String) -> Self {
        .enabled(if: ChildProcess.requestedWorkload == workload, "runs in a child process only")
    }
}
