import Foundation
import Testing
import TestSupport

extension Trait where Self == ConditionTrait {
    /// Runs the test only when Scripts/test has started httpbin; otherwise reports why it skipped.
    static var needsHTTPBin: Self {
        .enabled(if: TestServers.httpbin != nil, Comment(rawValue: TestServers.skipReason))
    }

    /// Runs the test only when Scripts/test has started the fixture server.
    static var needsFixtureServer: Self {
        .enabled(if: TestServers.fixture != nil, Comment(rawValue: TestServers.skipReason))
    }

    /// Runs the test only when Scripts/test has started the streaming fixture server.
    static var needsStreamServer: Self {
        .enabled(if: TestServers.stream != nil, Comment(rawValue: TestServers.skipReason))
    }
}
