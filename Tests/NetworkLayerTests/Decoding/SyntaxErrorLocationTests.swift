import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A body that is not JSON says where it broke; on Linux `JSONDecoder` alone says only
/// "The given data was not valid JSON".
@Suite("Where invalid JSON broke")
struct SyntaxErrorLocationTests {
    struct Movie: Decodable { let id: Int }

    private func decodingFailure(_ body: String) throws -> NetworkError {
        let response = Response(
            request: URLRequest(url: URL(string: "https://example.invalid/m")!),
            httpResponse: try #require(HTTPURLResponse(url: URL(string: "https://example.invalid/m")!, statusCode: 200, httpVersion: nil, headerFields: nil)),
            data: Data(body.utf8))
        do {
            _ = try response.decode(Movie.self)
        } catch {
            return error
        }
        throw CancellationError()
    }

    @Test func theDescriptionGivesTheCharacterOffset() throws {
        let error = try decodingFailure(#"{"id": 1,, }"#)
        let description = try #require(error.errorDescription)
        #expect(description.contains("around character 9"), "\(description)")
        guard case .decoding(DecodingError.dataCorrupted(let context), _) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.debugDescription.contains("character 9"))
        #expect(context.underlyingError != nil)
    }

    @Test func aTypeMismatchIsLeftAsItIs() throws {
        let error = try decodingFailure(#"{"id": "seven"}"#)
        #expect(error.codingPath == "id")
        #expect(error.errorDescription?.contains("character") == false)
    }
}
