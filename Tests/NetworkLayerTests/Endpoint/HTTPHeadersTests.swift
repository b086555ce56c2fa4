import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `HTTPHeaders`: one field per name whatever its letter case, in the order set.
@Suite("HTTP headers")
struct HTTPHeadersTests {
    @Test func aNameIsFoundWhateverItsCase() {
        let headers: HTTPHeaders = ["Content-Type": "application/json"]
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers["Content-Length"] == nil)
    }

    @Test func settingANameInAnotherCaseReplacesTheFieldInItsPlace() {
        var headers: HTTPHeaders = ["Accept": "text/html", "X-Trace": "1"]
        headers["accept"] = "application/json"
        #expect(headers.count == 2)
        #expect(Array(headers.map(\.name)) == ["accept", "X-Trace"])
        #expect(headers["Accept"] == "application/json")
        headers["ACCEPT"] = nil
        #expect(Array(headers.map(\.name)) == ["X-Trace"])
    }

    @Test func aLiteralWithOneNameTwiceKeepsTheLastValue() {
        let headers: HTTPHeaders = ["x-api": "1", "X-Api": "2"]
        #expect(headers.count == 1)
        #expect(headers["X-API"] == "2")
    }

    @Test func aDictionaryWithOneNameInTwoCasesGivesTheSameFieldEveryTime() {
        for _ in 0..<20 {
            let headers = HTTPHeaders(["x-api": "lower", "X-Api": "upper"])
            #expect(headers.count == 1)
            #expect(headers["x-api"] == "lower")  // "x-api" sorts after "X-Api"
        }
    }

    @Test func equalityComparesNamesWithoutCaseAndIgnoresOrder() {
        #expect(HTTPHeaders(["A": "1", "b": "2"]) == ["B": "2", "a": "1"])
        #expect(HTTPHeaders(["A": "1"]) != ["A": "2"])
        #expect(HTTPHeaders(["A": "1"]) != ["A": "1", "B": "2"])
    }

    @Test func mergingSetsTheOtherFieldsOverThese() {
        let merged = HTTPHeaders(["Accept": "text/html", "X-Kept": "yes"]).merging(["accept": "application/json"])
        #expect(merged == ["Accept": "application/json", "X-Kept": "yes"])
        #expect(merged.dictionary == ["accept": "application/json", "X-Kept": "yes"])
    }

    @Test func onlyASCIILettersFold() {
        #expect(HeaderName.same("X-Api-Key", "x-api-key"))
        #expect(!HeaderName.same("X-Api-Key", "X_Api_Key"))
        // "@" is 0x40, "`" is 0x60: they differ by the case bit, but are not letters.
        #expect(!HeaderName.same("a@b", "a`b"))
        #expect(!HeaderName.same("K", "\u{212A}"))  // the Kelvin sign folds to "k" in Unicode
    }

    @Test func printingHeadersHidesCredentials() {
        let headers: HTTPHeaders = ["Authorization": "Bearer s3cret-token", "Accept": "application/json"]
        let printed = "\(headers)"
        #expect(!printed.contains("s3cret"))
        #expect(printed.contains("Accept: application/json"))
    }

    @Test func anEndpointsHeadersAndItsTasksAreOneFieldPerName() throws {
        let endpoint = TestEndpoint.offline(
            "anything",
            task: .requestParametersAndHeaders(
                bodyParameters: nil, bodyEncoding: .json, urlParameters: nil, additionalHeaders: ["accept": "text/csv"]),
            headers: ["Accept": "application/json"])
        let request = try RequestBuilder.makeRequest(for: endpoint)
        let sent = try #require(request.allHTTPHeaderFields)
        #expect(sent.keys.filter { $0.lowercased() == "accept" }.count == 1)
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/csv")
    }
}
