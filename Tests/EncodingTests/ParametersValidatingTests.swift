import Foundation
import Testing
import TestSupport
@testable import Encoding
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Parameters(validating:)`: a `[String: Any]` from JSONSerialization or Objective-C becomes
/// `Parameters`, or a typed error names the first value that cannot be sent.
@Suite("Parameters from [String: Any]")
struct ParametersValidatingTests {
    private func legacy(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    private func json(_ parameters: Parameters) throws -> String {
        var request = URLRequest(url: URL(string: "https://example.invalid")!)
        request.httpMethod = "POST"
        try JSONParameterEncoder().encode(urlRequest: &request, with: parameters)
        return String(decoding: request.httpBody ?? Data(), as: UTF8.self)
    }

    @Test func whatJSONSerializationProducesEncodesBackToTheSameJSON() throws {
        let text = #"{"a":[1,2.5,"x",null,true],"b":{"c":false,"d":-7},"e":null,"f":18446744073709551615}"#
        #expect(try json(try Parameters(validating: try legacy(text))) == text)
    }

    @Test func numbersBecomeTheirSwiftTypes() throws {
        let parameters = try Parameters(validating: try legacy(#"{"flag": true, "int": 3, "double": 2.5, "huge": 18446744073709551615}"#))
        #expect(parameters["flag"] as? Bool == true)
        #expect(parameters["int"] as? Int == 3)
        #expect(parameters["double"] as? Double == 2.5)
        #expect(parameters["huge"] as? UInt64 == UInt64.max)
    }

    /// NSArray and NSDictionary are opened one level at a time (no whole-tree bridging) and
    /// give the same parameters as their Swift counterparts.
    @Test func foundationContainersBecomeParameters() throws {
        let nested = NSDictionary(dictionary: ["k": NSArray(array: [1, "x", NSDictionary(dictionary: ["z": true])])])
        let parameters = try Parameters(validating: ["a": nested])
        #expect(try json(parameters) == #"{"a":{"k":[1,"x",{"z":true}]}}"#)
        #expect(try URLParameterEncoder().query(from: parameters) == "a%5Bk%5D%5B%5D=1&a%5Bk%5D%5B%5D=x&a%5Bk%5D%5B%5D%5Bz%5D=1")
        #expect(throws: ParameterEncodingError.unsupportedValue(keyPath: "a", type: "NSDictionary")) {
            try Parameters(validating: ["a": NSDictionary(dictionary: [1: "x"])])
        }
    }

    @Test func nestedContainersBecomeParametersAndSendableArrays() throws {
        let parameters = try Parameters(validating: try legacy(#"{"filter": {"tags": ["a", {"deep": 1}]}}"#))
        let filter = try #require(parameters["filter"] as? Parameters)
        let tags = try #require(filter["tags"] as? [any Sendable])
        #expect(tags.first as? String == "a")
        #expect((tags.last as? Parameters)?["deep"] as? Int == 1)
    }

    /// An Int8 NSNumber reports objCType "c", as a boolean one does; it became `true`.
    @Test func int8NSNumberBecomesAnIntNotABool() throws {
        let parameters = try Parameters(validating: ["a": NSNumber(value: Int8(65)), "b": NSNumber(value: CChar(-3)), "t": NSNumber(value: true)])
        #expect(parameters["a"] as? Int == 65)
        #expect(parameters["b"] as? Int == -3)
        #expect(parameters["t"] as? Bool == true)
    }

    @Test func nullAndNilAreLeftOutOfAQueryAndWrittenAsNullInJSON() throws {
        let parameters = try Parameters(validating: ["null": NSNull(), "nil": Int?.none as Any, "page": 2])
        var request = URLRequest(url: URL(string: "https://example.invalid/list")!)
        try URLParameterEncoder().encode(urlRequest: &request, with: parameters)
        #expect(request.url?.query == "page=2")
        #expect(try json(parameters) == #"{"nil":null,"null":null,"page":2}"#)
    }

    @Test func nativeSwiftValuesAreKept() throws {
        let id = UUID()
        let parameters = try Parameters(validating: [
            "int8": Int8(-3), "uint": UInt(7), "float": Float(1.5), "decimal": Decimal(string: "1.10")!, "sub": "abc".dropFirst(),
            "url": URL(string: "https://example.com/a")!, "uuid": id, "optional": Optional("x") as Any,
        ])
        #expect(parameters["int8"] as? Int8 == -3)
        #expect(parameters["uint"] as? UInt == 7)
        #expect(parameters["float"] as? Float == 1.5)
        #expect(parameters["sub"] as? String == "bc")
        #expect(parameters["uuid"] as? UUID == id)
        #expect(parameters["optional"] as? String == "x")
    }

    @Test func aDateIsRejectedWithItsKeyPath() throws {
        #expect(throws: ParameterEncodingError.unsupportedValue(keyPath: "user.born", type: "Date")) {
            try Parameters(validating: ["user": ["name": "Ada", "born": Date()] as [String: Any]])
        }
    }

    @Test func aCustomObjectInsideAnArrayIsRejectedWithItsIndex() throws {
        final class Legacy {}
        #expect(throws: ParameterEncodingError.unsupportedValue(keyPath: "items[1].owner", type: "Legacy")) {
            try Parameters(validating: ["items": [["owner": "a"], ["owner": Legacy()]] as [Any]])
        }
    }

    @Test func aDictionaryWithNonStringKeysIsRejected() throws {
        do {
            _ = try Parameters(validating: ["map": [1: "one"] as [Int: String]])
            Issue.record("expected an error")
        } catch {
            guard case .unsupportedValue(let keyPath, let type) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(keyPath == "map")
            #expect(type.contains("Dictionary"))
        }
    }

    @Test func notANumberIsRejected() throws {
        do {
            _ = try Parameters(validating: ["stats": ["ratio": Double.nan] as [String: Any]])
            Issue.record("expected an error")
        } catch {
            guard case .invalidJSONValue(let keyPath, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(keyPath == "stats.ratio")
        }
    }

    @Test func theFirstBadValueInKeyOrderIsNamed() throws {
        #expect(throws: ParameterEncodingError.unsupportedValue(keyPath: "a", type: "Data")) {
            try Parameters(validating: ["b": Date(), "a": Data(), "c": Date()])
        }
    }

    @Test func nestingDeeperThanTheEncodersLimitIsRejected() throws {
        var value: Any = "leaf"
        for _ in 0..<600 { value = ["n": value] as [String: Any] }
        do {
            _ = try Parameters(validating: ["root": value])
            Issue.record("expected an error")
        } catch {
            guard case .nestingTooDeep(_, let limit) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(limit == 512)
        }
    }

    @Test func anArrayConvertsWithTheSameChecks() throws {
        #expect(try [any Sendable](validating: [1, "x", ["k": 2] as [String: Any]]).count == 3)
        #expect(throws: ParameterEncodingError.unsupportedValue(keyPath: "[2].when", type: "Date")) {
            try [any Sendable](validating: [1, "x", ["when": Date()] as [String: Any]])
        }
    }

    @Test(.needsHTTPBin) func convertedParametersArriveAtTheServerAsTheyWere() async throws {
        let original = try legacy(#"{"name": "Amélie", "tags": ["a", "b"], "meta": {"count": 2, "ok": true}}"#)
        var request = URLRequest(url: try #require(TestServers.httpbin).appendingPathComponent("post"))
        request.httpMethod = "POST"
        try JSONParameterEncoder().encode(urlRequest: &request, with: try Parameters(validating: original))
        let (data, _) = try await URLSession.shared.data(for: request)
        let echoed = try #require(try jsonObject(data)["json"] as? [String: Any])
        #expect(NSDictionary(dictionary: echoed).isEqual(to: original))
    }
}
