import Foundation
import Testing
@testable import Encoding
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The JSON body rules, each with the exact bytes a server receives.
@Suite("JSONParameterEncoder")
struct JSONParameterEncoderTests {
    let encoder = JSONParameterEncoder()

    private func json(_ value: any Sendable, _ encoder: JSONParameterEncoder = .init()) throws -> String {
        String(decoding: try encoder.data(from: value), as: UTF8.self)
    }

    private func request() throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: "https://example.com/post")))
        request.httpMethod = "POST"
        return request
    }

    @Test func objectWithSortedKeysByDefault() throws {
        #expect(try json(["b": 1, "a": "x", "c": true, "d": NSNull()] as Parameters) == #"{"a":"x","b":1,"c":true,"d":null}"#)
    }

    /// An Int8 NSNumber reports objCType "c", as a boolean one does; it was written as `true`.
    @Test func int8NSNumberIsAnIntegerNotABool() throws {
        let parameters: Parameters = [
            "a": NSNumber(value: Int8(65)), "b": NSNumber(value: Int8(-3)), "t": NSNumber(value: true), "f": NSNumber(value: false),
        ]
        #expect(try json(parameters) == #"{"a":65,"b":-3,"f":false,"t":true}"#)
    }

    @Test func nestedValues() throws {
        let parameters: Parameters = ["user": ["name": "Ann", "tags": ["a", 2, false] as [any Sendable]] as Parameters, "ratio": 1.0]
        #expect(try json(parameters) == #"{"ratio":1.0,"user":{"name":"Ann","tags":["a",2,false]}}"#)
    }

    @Test func prettyPrinted() throws {
        let encoder = JSONParameterEncoder(outputFormatting: [.sortedKeys, .prettyPrinted])
        #expect(try json(["b": [1, 2], "a": [:] as Parameters] as Parameters, encoder) == "{\n  \"a\" : {},\n  \"b\" : [\n    1,\n    2\n  ]\n}")
    }

    @Test func stringEscaping() throws {
        #expect(try json(["s": "q\"b\\n\nr\rt\tc\u{01}/é🎬"] as Parameters) == #"{"s":"q\"b\\n\nr\rt\tc\u0001/é🎬"}"#)
    }

    @Test func numbers() throws {
        let parameters: Parameters = ["a": 1.0, "b": 0.1, "c": 1e-7, "d": -3, "e": Decimal(string: "2.50") ?? 0, "f": UInt64.max]
        #expect(try json(parameters) == #"{"a":1.0,"b":0.1,"c":1e-07,"d":-3,"e":2.5,"f":18446744073709551615}"#)
    }

    @Test func nilOptionalIsNull() throws {
        let missing: String? = nil
        #expect(try json(["m": missing] as Parameters) == #"{"m":null}"#)
    }

    @Test func nanNamesItsKeyPath() throws {
        #expect(throws: ParameterEncodingError.invalidJSONValue(keyPath: "stats.ratio", reason: "nan is not a JSON number")) {
            try encoder.data(from: ["stats": ["ratio": Double.nan] as Parameters] as Parameters)
        }
    }

    @Test func infinityInAnArrayNamesItsIndex() throws {
        #expect(throws: ParameterEncodingError.invalidJSONValue(keyPath: "items[1].price", reason: "inf is not a JSON number")) {
            try encoder.data(from: ["items": [["price": 1] as Parameters, ["price": Double.infinity] as Parameters]] as Parameters)
        }
    }

    @Test func dateIsUnsupported() throws {
        #expect(throws: ParameterEncodingError.unsupportedValue(keyPath: "when", type: "Date")) {
            try encoder.data(from: ["when": Date()] as Parameters)
        }
    }

    @Test func customStructIsUnsupported() throws {
        struct Point: Sendable { var x = 1 }
        #expect(throws: ParameterEncodingError.unsupportedValue(keyPath: "p", type: "Point")) {
            try encoder.data(from: ["p": Point()] as Parameters)
        }
    }

    @Test func setsContentTypeAndBody() throws {
        var request = try request()
        try encoder.encode(urlRequest: &request, with: ["a": 1])
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.httpBody == Data(#"{"a":1}"#.utf8))
    }

    @Test func keepsAContentTypeGivenInAnyCase() throws {
        var request = try request()
        request.setValue("application/vnd.api+json", forHTTPHeaderField: "CONTENT-TYPE")
        try encoder.encode(urlRequest: &request, with: ["a": 1])
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
        #expect((request.allHTTPHeaderFields ?? [:]).count == 1)
    }

    @Test func emptyParametersLeaveTheRequestUntouched() throws {
        var request = try request()
        try encoder.encode(urlRequest: &request, with: [:])
        #expect(request.httpBody == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test func topLevelArray() throws {
        var request = try request()
        try encoder.encode(urlRequest: &request, withJSONArray: [1, "two", ["x": 3] as Parameters])
        #expect(request.httpBody == Data(#"[1,"two",{"x":3}]"#.utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func topLevelArrayErrorPathStartsAtTheIndex() throws {
        var request = try request()
        #expect(throws: ParameterEncodingError.invalidJSONValue(keyPath: "[2].price", reason: "-inf is not a JSON number")) {
            try encoder.encode(urlRequest: &request, withJSONArray: [1, 2, ["price": -Double.infinity] as Parameters])
        }
        #expect(request.httpBody == nil)
    }

    struct Movie: Encodable, Sendable {
        var movieTitle: String
        var rating: Double
    }

    @Test func encodableWithCallersEncoder() throws {
        var request = try request()
        let jsonEncoder = JSONEncoder()
        jsonEncoder.keyEncodingStrategy = .convertToSnakeCase
        jsonEncoder.outputFormatting = .sortedKeys
        try encoder.encode(urlRequest: &request, encodable: Movie(movieTitle: "Up", rating: 8), encoder: jsonEncoder)
        #expect(request.httpBody == Data(#"{"movie_title":"Up","rating":8}"#.utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func encodableFailureNamesTheCodingPath() throws {
        var request = try request()
        #expect {
            try encoder.encode(urlRequest: &request, encodable: ["list": [Movie(movieTitle: "x", rating: .nan)]])
        } throws: { error in
            guard case .encodableFailed(let type, let codingPath, _) = error as? ParameterEncodingError else { return false }
            return type.contains("Movie") && codingPath == "list.[0].rating"
        }
    }

    @Test func errorsHaveReadableDescriptions() {
        let error = ParameterEncodingError.unsupportedValue(keyPath: "a.b", type: "Date")
        #expect(error.localizedDescription == "The parameter at \"a.b\" has type Date, which the encoder does not support.")
    }
}
