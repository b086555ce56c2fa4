// libFuzzer entry point over the code that takes caller-, endpoint- and server-controlled
// input: the URL and JSON encoders, header validation and URL building from arbitrary paths.
// Built by Scripts/fuzz with `swiftc -sanitize=fuzzer,address` together with the library's
// sources as one module; the property checked is "no trap, no sanitizer report".
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads the fuzzer's bytes as a sequence of small values.
struct FuzzInput {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = ArraySlice(bytes)
    }

    mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    /// A string of up to 32 bytes, decoded leniently as UTF-8 (invalid bytes become U+FFFD).
    mutating func string() -> String {
        let length = min(Int(byte() % 33), bytes.count)
        let chunk = bytes.prefix(length)
        bytes = bytes.dropFirst(length)
        return String(decoding: chunk, as: UTF8.self)
    }

    /// A parameter value of any supported (or unsupported) kind, nested up to `depth`.
    mutating func value(depth: Int) -> any Sendable {
        switch byte() % 12 {
        case 0: return string()
        case 1: return Int(Int8(bitPattern: byte())) * Int(byte())
        case 2: return byte() % 2 == 0
        case 3: return [Double.nan, .infinity, -.infinity, 0.1, 1e300, -0.0][Int(byte() % 6)]
        case 4: return Float(byte()) / 7
        case 5: return Decimal(Int(byte())) / 3
        case 6: return Optional<String>.none as any Sendable
        case 7: return NSNull()
        case 8: return Date(timeIntervalSince1970: Double(byte()))
        case 9: return UInt64.max - UInt64(byte())
        case 10 where depth > 0: return (0..<Int(byte() % 4)).map { _ in value(depth: depth - 1) }
        case 11 where depth > 0: return parameters(depth: depth - 1)
        default: return string()
        }
    }

    mutating func parameters(depth: Int) -> Parameters {
        var result: Parameters = [:]
        for _ in 0..<Int(byte() % 5) {
            result[string()] = value(depth: depth)
        }
        return result
    }
}

/// An endpoint whose every part comes from the fuzzer.
struct FuzzEndpoint: EndPointType {
    var baseURL: URL
    var path: String
    var httpMethod: HTTPMethod
    var task: HTTPTask
    var headers: HTTPHeaders?
    var timeout: TimeInterval
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(UnsafeRawBufferPointer(start: data, count: count))
    let parameters = input.parameters(depth: 3)

    // Encoders: every outcome must be a value or a ParameterEncodingError.
    let urlEncoder = URLParameterEncoder(
        destination: input.byte() % 2 == 0 ? .queryString : .httpBody,
        arrayEncoding: [.brackets, .noBrackets, .indexInBrackets][Int(input.byte() % 3)],
        boolEncoding: input.byte() % 2 == 0 ? .numeric : .literal,
        nilEncoding: input.byte() % 2 == 0 ? .dropKey : .emptyValue)
    if let url = URL(string: "https://example.invalid/a?b=c#d") {
        var request = URLRequest(url: url)
        _ = try? urlEncoder.encode(urlRequest: &request, with: parameters)
        _ = try? JSONParameterEncoder(outputFormatting: input.byte() % 2 == 0 ? [.sortedKeys] : [.prettyPrinted])
            .encode(urlRequest: &request, with: parameters)
    }

    // Request building: base URL, path, headers and timeout from the fuzzer.
    let base = URL(string: input.string()) ?? URL(string: "https://example.invalid/3/")
    if let base {
        var headers: HTTPHeaders = [:]
        for _ in 0..<Int(input.byte() % 3) { headers[input.string()] = input.string() }
        let endpoint = FuzzEndpoint(
            baseURL: base, path: input.string(),
            httpMethod: [.get, .post, .head, HTTPMethod(rawValue: input.string())][Int(input.byte() % 4)],
            task: input.byte() % 2 == 0
                ? .requestParameters(bodyParameters: parameters, bodyEncoding: .urlForm, urlParameters: parameters)
                : .requestParametersAndHeaders(bodyParameters: nil, bodyEncoding: .json, urlParameters: parameters, additionalHeaders: headers),
            headers: headers,
            timeout: [60, 0, -1, .nan, .infinity, 1e300][Int(input.byte() % 6)])
        _ = try? RequestBuilder.makeRequest(for: endpoint)
        _ = PathSegment(input.string()).description
    }
    _ = RetryAfter(headerValue: input.string())
    return 0
}
