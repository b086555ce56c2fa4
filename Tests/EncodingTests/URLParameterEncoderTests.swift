import Foundation
import Testing
@testable import Encoding
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The query and form encoding rules, each with the exact string a server receives.
@Suite("URLParameterEncoder")
struct URLParameterEncoderTests {
    let encoder = URLParameterEncoder()

    private func encodedURL(_ base: String, _ parameters: Parameters, encoder: URLParameterEncoder = .init()) throws -> String {
        var request = URLRequest(url: try #require(URL(string: base)))
        try encoder.encode(urlRequest: &request, with: parameters)
        return try #require(request.url?.absoluteString)
    }

    @Test func keysAreSorted() throws {
        #expect(try encoder.query(from: ["b": "2", "a": "1", "c": "3"]) == "a=1&b=2&c=3")
    }

    @Test func nestedDictionaryKeysAreSortedAndBracketed() throws {
        let parameters: Parameters = ["filter": ["tag": "x", "min": 1, "max": 9] as Parameters]
        #expect(try encoder.query(from: parameters) == "filter%5Bmax%5D=9&filter%5Bmin%5D=1&filter%5Btag%5D=x")
    }

    @Test func arraysUseEmptyBracketsByDefault() throws {
        #expect(try encoder.query(from: ["ids": [1, 2, 3]]) == "ids%5B%5D=1&ids%5B%5D=2&ids%5B%5D=3")
    }

    @Test func arraysWithoutBrackets() throws {
        let encoder = URLParameterEncoder(arrayEncoding: .noBrackets)
        #expect(try encoder.query(from: ["ids": [1, 2]]) == "ids=1&ids=2")
    }

    @Test func arraysWithIndexInBrackets() throws {
        let encoder = URLParameterEncoder(arrayEncoding: .indexInBrackets)
        #expect(try encoder.query(from: ["ids": ["a", "b"]]) == "ids%5B0%5D=a&ids%5B1%5D=b")
    }

    @Test func nestedArraysOfDictionaries() throws {
        let parameters: Parameters = ["items": [["id": 1, "tags": ["a", "b"]] as Parameters, ["id": 2] as Parameters]]
        #expect(
            try encoder.query(from: parameters) == "items%5B%5D%5Bid%5D=1&items%5B%5D%5Btags%5D%5B%5D=a&items%5B%5D%5Btags%5D%5B%5D=b&items%5B%5D%5Bid%5D=2")
    }

    @Test func boolsAreNumericByDefault() throws {
        #expect(try encoder.query(from: ["no": false, "yes": true]) == "no=0&yes=1")
    }

    @Test func boolsAsLiterals() throws {
        let encoder = URLParameterEncoder(boolEncoding: .literal)
        #expect(try encoder.query(from: ["no": false, "yes": true]) == "no=false&yes=true")
    }

    @Test func boolNSNumberIsABoolNotAnInteger() throws {
        let encoder = URLParameterEncoder(boolEncoding: .literal)
        #expect(try encoder.query(from: ["flag": NSNumber(value: true), "n": NSNumber(value: 7)]) == "flag=true&n=7")
    }

    /// An Int8 NSNumber reports objCType "c", as a boolean one does; it was written as `1`.
    @Test func int8NSNumberIsAnIntegerNotABool() throws {
        let parameters: Parameters = [
            "a": NSNumber(value: Int8(65)), "b": NSNumber(value: CChar(65)), "c": NSNumber(value: Int8(-3)),
            "d": NSNumber(value: Int8(127)), "e": NSNumber(value: Int8(0)), "t": NSNumber(value: true), "f": NSNumber(value: false),
        ]
        #expect(try encoder.query(from: parameters) == "a=65&b=65&c=-3&d=127&e=0&f=0&t=1")
    }

    @Test func numbersPrintTheSameOnEveryPlatform() throws {
        let parameters: Parameters = [
            "a": 1.0, "b": 0.1, "c": 1e-7, "d": -42, "e": Float(2.5), "f": UInt8(255),
            "g": Decimal(string: "3.140") ?? 0, "h": Int64.max, "i": NSNumber(value: 1.5),
        ]
        #expect(try encoder.query(from: parameters) == "a=1.0&b=0.1&c=1e-07&d=-42&e=2.5&f=255&g=3.14&h=9223372036854775807&i=1.5")
    }

    @Test func reservedCharactersAreEscaped() throws {
        #expect(try encoder.query(from: ["k": ":#[]@!$&'()*+,;="]) == "k=%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D")
    }

    @Test func onlyUnreservedQuestionMarkAndSlashStayLiteral() throws {
        #expect(try encoder.query(from: ["k": "AZaz09-._~?/"]) == "k=AZaz09-._~?/")
    }

    @Test func spacePlusAndPercent() throws {
        #expect(try encoder.query(from: ["q": "a b+c%d"]) == "q=a%20b%2Bc%25d")
    }

    @Test func keysAreEscapedToo() throws {
        #expect(try encoder.query(from: ["a b&c": "1"]) == "a%20b%26c=1")
    }

    @Test func unicodeAndEmojiAsUTF8Escapes() throws {
        #expect(try encoder.query(from: ["q": "é東🎬"]) == "q=%C3%A9%E6%9D%B1%F0%9F%8E%AC")
    }

    @Test func longValue() throws {
        let value = String(repeating: "a&", count: 10_000)
        let query = try encoder.query(from: ["long": value])
        #expect(query == "long=" + String(repeating: "a%26", count: 10_000))
    }

    @Test func nilIsLeftOutByDefault() throws {
        let page: Int? = nil
        #expect(try encoder.query(from: ["page": page, "q": "x"]) == "q=x")
    }

    @Test func nilAsEmptyValue() throws {
        let page: Int? = nil
        let encoder = URLParameterEncoder(nilEncoding: .emptyValue)
        #expect(try encoder.query(from: ["page": page, "n": NSNull()]) == "n=&page=")
    }

    @Test func optionalWithValueIsUnwrapped() throws {
        let page: Int? = 3
        #expect(try encoder.query(from: ["page": page]) == "page=3")
    }

    @Test func stringLikeValues() throws {
        let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        let parameters: Parameters = ["id": id, "sub": "abc".dropFirst(), "url": try #require(URL(string: "https://a.b/c?d=e"))]
        #expect(try encoder.query(from: parameters) == "id=E621E1F8-C36C-495A-93FC-0C247A3E6E5F&sub=bc&url=https%3A//a.b/c?d%3De")
    }

    @Test func unsupportedValueNamesItsKeyPath() throws {
        let parameters: Parameters = ["filter": ["since": Date(timeIntervalSince1970: 0)] as Parameters]
        #expect(throws: ParameterEncodingError.unsupportedValue(keyPath: "filter.since", type: "Date")) {
            try encoder.query(from: parameters)
        }
    }

    /// NaN and the infinities were written as `nan`, `inf`, `NaN` while the JSON encoder threw:
    /// both now refuse them with the same error.
    @Test(arguments: [
        ("Double.nan", Double.nan as any Sendable, "nan"), ("Double.infinity", Double.infinity, "inf"),
        ("-Double.infinity", -Double.infinity, "-inf"), ("Float.nan", Float.nan, "nan"),
        ("Float.infinity", Float.infinity, "inf"), ("Decimal.nan", Decimal.nan, "NaN"),
        ("NSNumber(nan)", NSNumber(value: Double.nan), "nan"),
    ])
    func nonFiniteNumbersAreRefusedAsInJSON(name: String, value: any Sendable, text: String) throws {
        let parameters: Parameters = ["stats": ["ratio": [1, value] as [any Sendable]] as Parameters]
        let expected = ParameterEncodingError.invalidJSONValue(keyPath: "stats.ratio[1]", reason: "\(text) is not a JSON number")
        #expect(throws: expected, "\(name)") { try encoder.query(from: parameters) }
        #expect(throws: expected, "\(name)") { try JSONParameterEncoder().data(from: parameters) }
        var request = URLRequest(url: try #require(URL(string: "https://example.com/s")))
        #expect(throws: expected, "\(name)") { try URLParameterEncoder(destination: .httpBody).encode(urlRequest: &request, with: parameters) }
        #expect(request.httpBody == nil)
    }

    @Test func appendsToTheQueryOfTheURL() throws {
        #expect(try encodedURL("https://example.com/search", ["q": "x y"]) == "https://example.com/search?q=x%20y")
    }

    @Test func keepsAnExistingQueryAndAppendsAfterAmpersand() throws {
        #expect(try encodedURL("https://example.com/s?lang=en&x=%2B", ["q": "1"]) == "https://example.com/s?lang=en&x=%2B&q=1")
    }

    @Test func keepsTheFragmentLast() throws {
        #expect(try encodedURL("https://example.com/s?a=1#top", ["b": "2"]) == "https://example.com/s?a=1&b=2#top")
    }

    @Test func emptyParametersLeaveTheRequestUntouched() throws {
        let url = try #require(URL(string: "https://example.com/s?"))
        var request = URLRequest(url: url)
        try encoder.encode(urlRequest: &request, with: [:])
        #expect(request.url == url)
        #expect(request.httpBody == nil)
        #expect(request.allHTTPHeaderFields?.isEmpty ?? true)
    }

    @Test func parametersThatEncodeToNothingLeaveTheURLUntouched() throws {
        #expect(try encodedURL("https://example.com/s", ["page": Int?.none]) == "https://example.com/s")
    }

    @Test func missingURLIsAnError() throws {
        var request = URLRequest(url: try #require(URL(string: "https://example.com")))
        request.url = nil
        #expect(throws: ParameterEncodingError.missingURL) {
            try encoder.encode(urlRequest: &request, with: ["a": 1])
        }
    }

    @Test func formBodySetsContentTypeAndBody() throws {
        var request = URLRequest(url: try #require(URL(string: "https://example.com/form")))
        try URLParameterEncoder(destination: .httpBody).encode(urlRequest: &request, with: ["b": "x y", "a": 1])
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(request.httpBody == Data("a=1&b=x%20y".utf8))
        #expect(request.url?.absoluteString == "https://example.com/form")
    }

    @Test func formBodyKeepsAContentTypeGivenInAnyCase() throws {
        var request = URLRequest(url: try #require(URL(string: "https://example.com/form")))
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "content-type")
        try URLParameterEncoder(destination: .httpBody).encode(urlRequest: &request, with: ["a": 1])
        let contentTypes = (request.allHTTPHeaderFields ?? [:]).filter { $0.key.lowercased() == "content-type" }
        #expect(contentTypes.count == 1)
        #expect(contentTypes.first?.value == "application/x-www-form-urlencoded")
    }
}
