import Foundation
import Testing
import TestSupport
@testable import Encoding
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a real server (httpbin on 127.0.0.1) decodes from our encoding: exactly the values given.
@Suite("Encoding round trip through httpbin", .needsHTTPBin)
struct HTTPBinRoundTripTests {
    /// Values chosen to break naive encoders: reserved characters, `+`, `%`, spaces, unicode.
    static let tricky: [String: String] = [
        "reserved": ":#[]@!$&'()*+,;=",
        "plus": "1+1=2",
        "percent": "100% %41",
        "space": "a b  c",
        "unicode": "Amélie 東京 🎬",
        "slash?": "a/b?c",
        "": "empty key",
    ]

    private func send(_ request: URLRequest) async throws -> [String: Any] {
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        return try jsonObject(data)
    }

    private func url(_ path: String) throws -> URL {
        try #require(TestServers.httpbin).appendingPathComponent(path)
    }

    @Test func queryArgumentsComeBackExactly() async throws {
        var request = URLRequest(url: try url("anything"))
        try URLParameterEncoder().encode(urlRequest: &request, with: Self.tricky)
        let echo = try await send(request)
        #expect(echo["args"] as? [String: String] == Self.tricky)
    }

    @Test func nestedAndArrayKeysComeBackAsBracketedNames() async throws {
        var request = URLRequest(url: try url("anything"))
        let parameters: Parameters = ["f": ["min": 1, "tag": "a&b"] as Parameters, "ids": [1, 2], "on": true]
        try URLParameterEncoder().encode(urlRequest: &request, with: parameters)
        let args = try #require(try await send(request)["args"] as? [String: Any])
        #expect(args["f[min]"] as? String == "1")
        #expect(args["f[tag]"] as? String == "a&b")
        #expect(args["ids[]"] as? [String] == ["1", "2"])
        #expect(args["on"] as? String == "1")
    }

    @Test func formBodyComesBackInForm() async throws {
        var request = URLRequest(url: try url("post"))
        request.httpMethod = "POST"
        try URLParameterEncoder(destination: .httpBody).encode(urlRequest: &request, with: Self.tricky)
        let echo = try await send(request)
        #expect(echo["form"] as? [String: String] == Self.tricky)
    }

    @Test func jsonBodyComesBackInJSON() async throws {
        var request = URLRequest(url: try url("post"))
        request.httpMethod = "POST"
        let parameters: Parameters = [
            "text": Self.tricky["unicode"] ?? "", "control": "line\nbreak\t\u{01}", "n": 1.5, "big": Int64.max,
            "nested": ["list": [1, "x", NSNull()] as [any Sendable]] as Parameters, "yes": true,
        ]
        try JSONParameterEncoder().encode(urlRequest: &request, with: parameters)
        let echo = try await send(request)
        let json = try #require(echo["json"] as? [String: Any])
        #expect(json["text"] as? String == "Amélie 東京 🎬")
        #expect(json["control"] as? String == "line\nbreak\t\u{01}")
        #expect(json["n"] as? Double == 1.5)
        #expect((json["big"] as? NSNumber)?.int64Value == Int64.max)
        #expect(json["yes"] as? Bool == true)
        let nested = try #require(json["nested"] as? [String: Any])
        let list = try #require(nested["list"] as? [Any])
        #expect(list.count == 3)
        #expect(list.last is NSNull)
        #expect((echo["headers"] as? [String: String])?["Content-Type"] == "application/json")
    }
}
