import Foundation
import Testing
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which validator a download's first part keeps for `If-Range` (RFC 9110 §13.1.5): a strong
/// `ETag`, else a `Last-Modified` that is strong, else none (and then no resumption).
@Suite("Resume validator")
struct ResumeValidatorTests {
    private func validator(_ headers: [String: String]) throws -> String? {
        let url = try #require(URL(string: "http://127.0.0.1/file"))
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers))
        return ResumeValidator.validator(of: response)
    }

    private let modified = "Wed, 01 Jan 2025 00:00:00 GMT"

    @Test func aStrongETagWinsOverLastModified() throws {
        #expect(try validator(["ETag": #""v1""#, "Last-Modified": modified, "Date": "Thu, 02 Jan 2025 00:00:00 GMT"]) == #""v1""#)
    }

    @Test func aWeakETagIsNeverSentButAStrongLastModifiedIs() throws {
        #expect(try validator(["ETag": #"W/"v1""#, "Last-Modified": modified, "Date": "Thu, 02 Jan 2025 00:00:00 GMT"]) == modified)
        #expect(try validator(["ETag": #"W/"v1""#]) == nil)
    }

    /// A file changed twice within one second has one date for two contents: its date is weak
    /// unless the response was sent at least a second later (RFC 9110 §8.8.2.2).
    @Test func aLastModifiedWithinASecondOfTheResponsesDateIsWeak() throws {
        #expect(try validator(["Last-Modified": modified, "Date": modified]) == nil)
        #expect(try validator(["Last-Modified": modified, "Date": "Wed, 01 Jan 2025 00:00:01 GMT"]) == modified)
    }

    @Test func aLastModifiedWithoutADateCannotBeShownStrong() throws {
        #expect(try validator(["Last-Modified": modified]) == nil)
        #expect(try validator(["Last-Modified": modified, "Date": "yesterday"]) == nil)
    }
}
