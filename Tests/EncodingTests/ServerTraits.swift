import Testing
import TestSupport

extension Trait where Self == ConditionTrait {
    /// Runs the test only when Scripts/test has started httpbin; otherwise reports why it skipped.
    static var needsHTTPBin: Self {
        .enabled(if: TestServers.httpbin != nil, Comment(rawValue: TestServers.skipReason))
    }
}
