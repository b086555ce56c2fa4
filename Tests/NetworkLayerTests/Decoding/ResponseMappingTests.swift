import Foundation
import Testing
import TestSupport
@testable import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Moya's mapping functions on `Response`: mapJSON, mapString(atKeyPath:), map(_:atKeyPath:…),
/// with typed errors that name where decoding stopped.
@Suite("Response mapping")
struct ResponseMappingTests {
    struct Item: Decodable, Equatable {
        let id: Int
        let name: String
    }

    struct AllOptional: Decodable, Equatable {
        let id: Int?
        let name: String?
    }

    private func response(_ body: String, status: Int = 200) throws(NetworkError) -> Response {
        try Response(statusCode: status, data: Data(body.utf8))
    }

    private let nested = #"{"data": {"items": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "total_results": 2}}"#

    // MARK: mapJSON

    @Test func mapJSONKeepsBooleansNumbersAndNullApart() throws {
        let json = try response(#"{"flag": true, "one": 1, "whole": 1.0, "half": 0.5, "big": 9007199254740993, "none": null}"#).mapJSON()
        #expect(json["flag"] == .bool(true))
        #expect(json["one"] == .integer(1))
        #expect(json["whole"] == .integer(1))
        #expect(json["half"] == .double(0.5))
        #expect(json["big"] == .integer(9_007_199_254_740_993))
        #expect(json["none"] == .null)
        #expect(json["missing"] == nil)
    }

    @Test func mapJSONReadsArraysAndNestedObjects() throws {
        let json = try response(nested).mapJSON()
        #expect(json["data"]?["items"]?[1]?["name"]?.stringValue == "b")
        #expect(json["data"]?["items"]?[2] == nil)
        #expect(json["data"]?["total_results"]?.intValue == 2)
    }

    @Test func mapJSONGivesFoundationObjectsForCodeWrittenAgainstMoya() throws {
        let object = try response(#"{"a": [1, "x", null], "b": false}"#).mapJSON().foundationObject
        let dictionary = try #require(object as? [String: Any])
        let array = try #require(dictionary["a"] as? [Any])
        #expect(array[0] as? Int64 == 1)
        #expect(array[1] as? String == "x")
        #expect(array[2] is NSNull)
        #expect(dictionary["b"] as? Bool == false)
    }

    @Test func mapJSONOfAnEmptyBodyFailsByDefault() throws {
        #expect(throws: NetworkError.self) { try response("").mapJSON() }
    }

    @Test func mapJSONOfAnEmptyBodyIsNullWhenAllowed() throws {
        #expect(try response("").mapJSON(failsOnEmptyData: false) == .null)
    }

    @Test func mapJSONOfInvalidJSONSaysWhereItBroke() throws {
        do {
            _ = try response(#"{"ok": tru, "n": 1}"#).mapJSON()
            Issue.record("expected a decoding error")
        } catch {
            guard case .decoding(_, let failed) = error else {
                Issue.record("expected .decoding, got \(error)")
                return
            }
            #expect(failed.text == #"{"ok": tru, "n": 1}"#)
            #expect(error.errorDescription?.contains("character") == true, "\(error)")
        }
    }

    @Test func mapJSONRejectsANumberOutOfEveryRange() throws {
        #expect(throws: NetworkError.self) { try response("[1e400]").mapJSON() }
    }

    @Test func mapJSONStopsAtTheDecodersNestingLimit() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: NetworkError.self) { try response(deep).mapJSON() }
    }

    @Test func mapJSONAndDecodingAJSONValueAgree() throws {
        // mapJSON parses with JSONSerialization (several times faster); JSONValue's Decodable
        // conformance serves map(JSONValue.self, atKeyPath:). Both read numbers alike.
        let numbers = "[1, 1.0, 1e2, 1.5, -0, 0.14285714285714285, 9007199254740993, 18446744073709551615, 1e29]"
        let body = try response(#"{"a": \#(numbers), "b": {"t": true, "f": false, "n": null, "s": "é"}}"#)
        let parsed = try body.mapJSON()
        #expect(parsed == (try body.map(JSONValue.self)))
        #expect(parsed["a"]?[2] == .integer(100))
        #expect(parsed["a"]?[7] == .double(Double(UInt64.max)))
    }

    @Test func aJSONValueEncodesBackToTheSameJSON() throws {
        let json = try response(nested).mapJSON()
        let encoded = try JSONEncoder().encode(json)
        #expect(try JSONDecoder().decode(JSONValue.self, from: encoded) == json)
    }

    // MARK: mapString

    @Test func mapStringWithoutAKeyPathIsTheBody() throws {
        #expect(try response("héllo").mapString() == "héllo")
    }

    @Test func mapStringRejectsInvalidUTF8() throws {
        let invalid = try Response(statusCode: 200, data: Data([0x61, 0xFF, 0x62]))
        #expect(invalid.text == "a\u{FFFD}b")
        #expect(throws: NetworkError.self) { try invalid.mapString() }
    }

    @Test func mapStringAtAKeyPath() throws {
        #expect(try response(#"{"auth": {"token": "t-1"}}"#).mapString(atKeyPath: "auth.token") == "t-1")
    }

    @Test func mapStringAtAKeyPathThatHoldsNoStringFails() throws {
        do {
            _ = try response(#"{"auth": {"token": 7}}"#).mapString(atKeyPath: "auth.token")
            Issue.record("expected a decoding error")
        } catch {
            #expect(error.codingPath == "auth.token")
        }
    }

    // MARK: map(_:atKeyPath:)

    @Test func mapDecodesTheModelUnderAKeyPath() throws {
        let items = try response(nested).map([Item].self, atKeyPath: "data.items")
        #expect(items == [Item(id: 1, name: "a"), Item(id: 2, name: "b")])
    }

    @Test func mapFollowsArrayIndicesWrittenWithDotsOrBrackets() throws {
        let body = try response(nested)
        #expect(try body.map(Item.self, atKeyPath: "data.items.1") == Item(id: 2, name: "b"))
        #expect(try body.map(String.self, atKeyPath: "data.items[0].name") == "a")
    }

    @Test func aMissingKeyIsKeyNotFoundAtTheLastMemberFound() throws {
        do {
            _ = try response(nested).map([Item].self, atKeyPath: "data.movies")
            Issue.record("expected a decoding error")
        } catch {
            guard case .decoding(DecodingError.keyNotFound(let key, let context), _) = error else {
                Issue.record("expected keyNotFound, got \(error)")
                return
            }
            #expect(key.stringValue == "movies")
            #expect(context.codingPath.map(\.stringValue) == ["data"])
            #expect(error.errorDescription?.contains(#"missing key "movies" at "data""#) == true, "\(error)")
        }
    }

    @Test func anIndexPastTheEndIsValueNotFound() throws {
        do {
            _ = try response(nested).map(Item.self, atKeyPath: "data.items.5")
            Issue.record("expected a decoding error")
        } catch {
            guard case .decoding(DecodingError.valueNotFound(_, let context), _) = error else {
                Issue.record("expected valueNotFound, got \(error)")
                return
            }
            #expect(context.debugDescription.contains("element 5 of an array of 2"))
        }
    }

    @Test func aKeyPathThroughAStringIsATypeMismatch() throws {
        do {
            _ = try response(#"{"data": "text"}"#).map(Item.self, atKeyPath: "data.items")
            Issue.record("expected a decoding error")
        } catch {
            guard case .decoding(DecodingError.typeMismatch, _) = error else {
                Issue.record("expected typeMismatch, got \(error)")
                return
            }
            #expect(error.codingPath == "data")
        }
    }

    @Test(arguments: ["", "data..items", "data.items[x]", "data.items[0", "data.items[0]x"])
    func anInvalidKeyPathIsReportedAsSuch(_ keyPath: String) throws {
        do {
            _ = try response(nested).map(Item.self, atKeyPath: keyPath)
            Issue.record("expected a decoding error for \(keyPath)")
        } catch {
            guard case .decoding(DecodingError.dataCorrupted(let context), _) = error else {
                Issue.record("expected dataCorrupted, got \(error)")
                return
            }
            #expect(context.debugDescription.contains("is not valid"), "\(context.debugDescription)")
        }
    }

    @Test func aModelErrorUnderTheKeyPathKeepsItsFullCodingPath() throws {
        do {
            _ = try response(#"{"data": {"items": [{"id": 1, "name": "a"}, {"id": "two", "name": "b"}]}}"#)
                .map([Item].self, atKeyPath: "data.items")
            Issue.record("expected a decoding error")
        } catch {
            #expect(error.codingPath == "data.items.[1].id")
        }
    }

    @Test func theDecodersStrategiesApplyUnderTheKeyPath() throws {
        struct Stamp: Decodable, Equatable { let createdAt: Date }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .secondsSince1970
        let body = try response(#"{"meta_data": {"stamp": {"created_at": 86400}}}"#)
        // The key path as the server spells it, or as the strategy converts it.
        #expect(try body.map(Stamp.self, atKeyPath: "meta_data.stamp", using: decoder) == Stamp(createdAt: Date(timeIntervalSince1970: 86_400)))
        #expect(try body.map(Date.self, atKeyPath: "metaData.stamp.createdAt", using: decoder) == Date(timeIntervalSince1970: 86_400))
    }

    @Test func numbersUnderAKeyPathAreNotRewritten() throws {
        // Moya's JSONSerialization round trip turns 1.0 into 1 and loses digits of large ids.
        let body = try response(#"{"data": {"price": 1.10, "id": 9007199254740993}}"#)
        #expect(try body.map(Decimal.self, atKeyPath: "data.price") == Decimal(string: "1.1"))
        #expect(try body.map(Int64.self, atKeyPath: "data.id") == 9_007_199_254_740_993)
    }

    @Test func snakeCaseConversionFollowsFoundation() {
        for (snake, camel) in [
            ("total_results", "totalResults"), ("_private_key", "_privateKey"), ("trailing_", "trailing_"),
            ("many__underscores", "manyUnderscores"), ("plain", "plain"), ("URL_value", "urlValue"), ("___", "___"),
        ] {
            #expect(KeyPathDecoding.camelCase(fromSnakeCase: snake) == camel)
        }
    }

    // MARK: Empty bodies

    @Test func anEmptyBodyFailsByDefaultAndSaysHowToAcceptIt() throws {
        do {
            _ = try response("").map(AllOptional.self)
            Issue.record("expected a decoding error")
        } catch {
            #expect(error.errorDescription?.contains("failsOnEmptyData: false") == true, "\(error)")
        }
    }

    @Test func anEmptyBodyDecodesAnObjectWhosePropertiesAreAllOptional() throws {
        #expect(try response("").map(AllOptional.self, failsOnEmptyData: false) == AllOptional(id: nil, name: nil))
    }

    @Test func anEmptyBodyDecodesAnEmptyArray() throws {
        #expect(try response("").map([Item].self, failsOnEmptyData: false) == [])
        #expect(try response("").map([Item].self, atKeyPath: "data.items", failsOnEmptyData: false) == [])
    }

    @Test func anEmptyBodyFailsClearlyForATypeThatNeedsValues() throws {
        do {
            _ = try response("").map(Item.self, failsOnEmptyData: false)
            Issue.record("expected a decoding error")
        } catch {
            let description = error.errorDescription ?? ""
            #expect(description.contains("The body is empty, and Item cannot be made from an empty object or array"), "\(description)")
            #expect(description.contains(#"missing key "id""#), "\(description)")
        }
    }

    @Test func anEmptyBodyIsNilForAnOptionalAndEmptyResponseWhateverTheFlag() throws {
        #expect(try response("").map(Item?.self) == nil)
        #expect(try response("").map(EmptyResponse.self) == EmptyResponse())
    }

    // MARK: Filters

    @Test func filtersPassAResponseWhoseStatusMatches() throws {
        let created = try response("{}", status: 201)
        #expect(try created.filter(statusCodes: 200...201).statusCode == 201)
        #expect(try created.filter(statusCodes: [201, 204]).statusCode == 201)
        #expect(try created.filter(statusCode: 201).statusCode == 201)
        #expect(try created.filterSuccessfulStatusCodes().statusCode == 201)
        #expect(try response("", status: 304).filterSuccessfulStatusAndRedirectCodes().statusCode == 304)
    }

    @Test(arguments: [199, 300, 404, 500])
    func filterSuccessfulStatusCodesRejectsOthersWithTheResponse(_ status: Int) throws {
        do {
            _ = try response(#"{"error":"x"}"#, status: status).filterSuccessfulStatusCodes()
            Issue.record("expected \(status) to be rejected")
        } catch {
            guard case .unacceptableStatusCode(let rejected) = error else {
                Issue.record("expected .unacceptableStatusCode, got \(error)")
                return
            }
            #expect(rejected.statusCode == status)
            #expect(rejected.text == #"{"error":"x"}"#)
        }
    }

    @Test func filterSuccessfulStatusAndRedirectCodesRejects400() throws {
        #expect(throws: NetworkError.self) { try response("", status: 400).filterSuccessfulStatusAndRedirectCodes() }
    }
}

/// The same mapping on real responses, through the router's `async` convenience.
@Suite("Response mapping over the wire", .needsHTTPBin)
struct ResponseMappingWireTests {
    struct Slide: Decodable, Equatable {
        let title: String
        let type: String
    }

    let router = Router<TestEndpoint>(callbackQueue: DispatchQueue(label: "mapping-tests"))

    @Test func aModelUnderAKeyPathOfHTTPBinsJSON() async throws {
        // httpbin's /json: {"slideshow": {"author": …, "slides": [{"title": "Wake up to WonderWidgets!", "type": "all"}, …]}}
        let slides = try await router.request(.httpbin("json"), as: [Slide].self, atKeyPath: "slideshow.slides")
        #expect(slides.first == Slide(title: "Wake up to WonderWidgets!", type: "all"))
        let author = try await router.request(.httpbin("json")).mapString(atKeyPath: "slideshow.author")
        #expect(author == "Yours Truly")
    }

    @Test func theEchoedQueryThroughMapJSON() async throws {
        let json = try await router.request(.httpbin("get", task: .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["q": "naïve"])))
            .filterSuccessfulStatusCodes()
            .mapJSON()
        #expect(json["args"]?["q"]?.stringValue == "naïve")
    }

    @Test func anEmptyBodyFromAServerDecodesWhenAllowed() async throws {
        let response = try await router.request(.httpbin("status/204"))
        #expect(response.statusCode == 204)
        #expect(try response.map([Slide].self, failsOnEmptyData: false) == [])
        #expect(throws: NetworkError.self) { try response.map([Slide].self) }
    }
}
