import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The local servers that `Scripts/test` starts on 127.0.0.1, read from the environment.
///
/// A plain `swift test` has none of them: the tests that need one are then reported as
/// skipped with ``TestServers/skipReason``. When a variable is set but its server is down,
/// those tests fail, because their requests do.
public enum TestServers {
    /// httpbin (`NETWORKLAYER_HTTPBIN_URL`).
    public static let httpbin = url("NETWORKLAYER_HTTPBIN_URL")
    /// Our fixture server, Tests/Fixtures/fixture_server.py (`NETWORKLAYER_FIXTURE_URL`).
    public static let fixture = url("NETWORKLAYER_FIXTURE_URL")
    /// The streaming fixture server, Tests/Fixtures/stream_server.py: server-sent events and
    /// newline-delimited JSON (`NETWORKLAYER_STREAM_URL`).
    public static let stream = url("NETWORKLAYER_STREAM_URL")
    /// The fake TMDB API, Tests/Fixtures/fake_tmdb.py, including its `/3` (`NETWORKLAYER_FAKE_TMDB_URL`).
    public static let fakeTMDB = url("NETWORKLAYER_FAKE_TMDB_URL")
    /// The built movie-db executable (`NETWORKLAYER_MOVIE_DB_BIN`).
    public static let movieDBBinary = ProcessInfo.processInfo.environment["NETWORKLAYER_MOVIE_DB_BIN"]

    /// Why a server test did not run.
    public static let skipReason =
        "needs the local test servers: run Scripts/test, which starts them and sets the NETWORKLAYER_* variables"

    private static func url(_ name: String) -> URL? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return URL(string: value)
    }
}
