import Foundation
import NetworkLayer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct BenchEndpoint: EndPointType {
    var baseURL: URL
    var path: String { "fast" }
    var httpMethod: HTTPMethod { .get }
    var task: HTTPTask { .requestParameters(bodyParameters: nil, bodyEncoding: .json, urlParameters: ["page": 1]) }
    var headers: HTTPHeaders? { ["Accept": "application/json"] }
}

func runRouterBenchmarks(server: URL) async throws {
    print("\n## Router vs raw URLSession, GET \(server.absoluteString)/fast?page=1 on loopback")
    print("(blocks A B B A, 6 rounds; ratio = Router throughput / raw throughput per round: median (range))")
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 16
    let session = URLSession(configuration: configuration)
    let router = Router<BenchEndpoint>(transport: URLSessionTransport(configuration: configuration))
    let endpoint = BenchEndpoint(baseURL: server)
    let rawRequest = try RequestBuilder.makeRequest(for: endpoint)
    guard let rawURL = rawRequest.url else { return }

    // Warm up connections and code paths on both sides.
    for _ in 0..<200 {
        _ = try await session.data(from: rawURL)
        _ = try await router.request(endpoint)
    }

    let raw: @Sendable () async throws -> Void = {
        let (_, response) = try await session.data(from: rawURL)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
    }
    // The ceiling of any completion-handler client on this Foundation: a data task with a
    // completion handler and nothing else.
    let rawCompletion: @Sendable () async throws -> Void = {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            session.dataTask(with: rawURL) { _, response, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }.resume()
        }
    }
    let routed: @Sendable () async throws -> Void = { _ = try await router.request(endpoint) }
    let transport = URLSessionTransport(configuration: configuration)
    let transportOnly: @Sendable () async throws -> Void = { _ = try await transport.send(rawRequest) }

    for (label, width, perBlock) in [("1 in flight", 1, 500), ("16 in flight", 16, 1_000)] {
        let versusRaw = try await interleaved(rounds: 6, perBlock: perBlock, width: width, a: raw, b: routed)
        let ceiling = try await interleaved(rounds: 3, perBlock: perBlock, width: width, a: raw, b: rawCompletion)
        let transportAlone = try await interleaved(rounds: 3, perBlock: perBlock, width: width, a: raw, b: transportOnly)
        // What the router adds to the transport it sends through, apart from what raw data(from:)
        // gains inside FoundationNetworking (an inline completion no other client can have).
        let overTransport = try await interleaved(rounds: 6, perBlock: perBlock, width: width, a: transportOnly, b: routed)
        row("raw URLSession data(from:), \(label)", "\(Int(versusRaw.a.median)) req/s")
        row("Router, \(label)", "\(Int(versusRaw.b.median)) req/s")
        row("  Router / raw, \(label)", "\(versusRaw.ratio)")
        row("  raw completion handler / raw, \(label) (ceiling)", "\(ceiling.ratio)")
        row("  URLSessionTransport alone / raw, \(label)", "\(transportAlone.ratio)")
        row("  context switches per request: transport alone", format(transportAlone.bContextSwitches, 2))
        row("  Router / URLSessionTransport alone, \(label)", "\(overTransport.ratio)")
        row("  CPU per request: raw / Router", format(versusRaw.aCPUMicroseconds, 0) + " / " + format(versusRaw.bCPUMicroseconds, 0) + " µs")
        row("  context switches per request: raw / Router", format(versusRaw.aContextSwitches, 2) + " / " + format(versusRaw.bContextSwitches, 2))
    }
}

/// A small model, as most API responses decode to.
struct SmallModel: Decodable, Sendable {
    let id: Int
    let title: String
    let popularity: Double
    let adult: Bool
}

/// An endpoint whose sample response is a small model, for the stubbed pipeline.
struct StubbedEndpoint: EndPointType {
    static let body = Data(#"{"id":550,"title":"Fight Club","popularity":61.4,"adult":false}"#.utf8)
    var baseURL: URL { URL(string: "https://api.example.invalid/3")! }
    var path: String { "movie/550" }
    var httpMethod: HTTPMethod { .get }
    var task: HTTPTask { .request }
    var headers: HTTPHeaders? { nil }
    var sampleData: Data { Self.body }
}

func runOverheadBenchmark() async throws {
    print("\n## A stubbed request decoded to a small model, against decoding the same bytes alone")
    print("(blocks A B B A, 6 rounds of 20,000, one at a time)")
    let router = Router<StubbedEndpoint>(callbackQueue: DispatchQueue(label: "bench"), stubBehavior: { _ in .immediate })
    let decodeOnly: @Sendable () async throws -> Void = {
        _ = try JSONDecoder().decode(SmallModel.self, from: StubbedEndpoint.body)
    }
    let stubbed: @Sendable () async throws -> Void = {
        _ = try await router.request(StubbedEndpoint(), as: SmallModel.self)
    }
    for _ in 0..<2_000 { try await stubbed() }
    let comparison = try await interleaved(rounds: 6, perBlock: 20_000, width: 1, a: decodeOnly, b: stubbed)
    let beyond = Spread(values: zip(comparison.a.values, comparison.b.values).map { 1e6 / $1 - 1e6 / $0 })
    row("decode alone", format(1e6 / comparison.a.median, 2) + " µs/request")
    row("stubbed router request + decode", format(1e6 / comparison.b.median, 2) + " µs/request")
    row("  beyond the decode (median, range)", "\(beyond) µs")
    row("  CPU per request: decode / router", format(comparison.aCPUMicroseconds, 2) + " / " + format(comparison.bCPUMicroseconds, 2) + " µs")
    row("  context switches per request: decode / router", format(comparison.aContextSwitches, 3) + " / " + format(comparison.bContextSwitches, 3))
}
