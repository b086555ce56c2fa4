import Testing
@testable import NetworkLayer

extension Router<TestEndpoint> {
    /// Records an issue unless `endpoint` fails with ``NetworkError/responseTooLarge(limit:)``
    /// for exactly `limit` bytes.
    func expectTooLarge(_ endpoint: TestEndpoint, limit: Int) async {
        do {
            let response = try await request(endpoint)
            Issue.record("expected responseTooLarge, got \(response.statusCode) with \(response.data.count) bytes")
        } catch {
            guard case .responseTooLarge(limit: limit) = error else {
                Issue.record("expected responseTooLarge(limit: \(limit)), got \(error)")
                return
            }
        }
    }
}
