import Foundation

/// Where the tutorial's endpoints point: the fake TMDB that Scripts/test starts, with its `/3`.
enum FakeTMDB {
    static var baseURL: String { ProcessInfo.processInfo.environment["NETWORKLAYER_FAKE_TMDB_URL"] ?? "" }
}
