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

/// Sends `total` requests with at most `width` in flight.
func inFlight(_ total: Int, width: Int, _ send: @escaping @Sendable () async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        var started = 0
        while started < min(width, total) {
            group.addTask { try await send() }
            started += 1
        }
        while try await group.next() != nil {
            if started < total {
                group.addTask { try await send() }
                started += 1
            }
        }
    }
}

func runRouterBenchmarks(server: URL) async throws {
    print("\n## Router vs raw URLSession, GET \(server.absoluteString)/fast?page=1 on loopback")
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 16
    let session = URLSession(configuration: configuration)
    let transport = URLSessionTransport(configuration: configuration)
    let router = Router<BenchEndpoint>(transport: transport)
    let endpoint = BenchEndpoint(baseURL: server)
    let rawRequest = try RequestBuilder.makeRequest(for: endpoint)

    // Warm up connections and code paths on both sides.
    for _ in 0..<200 {
        _ = try await session.data(for: rawRequest)
        _ = try await router.request(endpoint)
    }

    for (label, width, total) in [("sequential", 1, 2_000), ("16 in flight", 16, 4_000)] {
        let raw = try await measureAsync {
            try await inFlight(total, width: width) {
                let (_, response) = try await session.data(for: rawRequest)
                guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
            }
        }
        let transportOnly = try await measureAsync {
            try await inFlight(total, width: width) { _ = try await transport.send(rawRequest) }
        }
        let ours = try await measureAsync {
            try await inFlight(total, width: width) { _ = try await router.request(endpoint) }
        }
        row("raw URLSession data(for:), \(label)", "\(Int(Double(total) / raw)) req/s")
        row("URLSessionTransport alone, \(label)", "\(Int(Double(total) / transportOnly)) req/s")
        row("Router, \(label)", "\(Int(Double(total) / ours)) req/s")
        row("throughput Router / raw URLSession, \(label)", format(raw / ours, 3) + " (1.000 = parity)")
    }
}

/// A transport that answers at once, so what is measured is the router alone.
struct ImmediateTransport: HTTPTransport {
    let response: HTTPURLResponse
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        (Data("{\"ok\":true}".utf8), response)
    }
}

func runOverheadBenchmark() async throws {
    print("\n## Router overhead with a transport that returns at once")
    let server = URL(string: "http://127.0.0.1:9")!
    guard let http = HTTPURLResponse(url: server, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:]) else { return }
    let transport = ImmediateTransport(response: http)
    let router = Router<BenchEndpoint>(transport: transport, callbackQueue: DispatchQueue(label: "bench"))
    let endpoint = BenchEndpoint(baseURL: server)
    let total = 50_000

    let direct = try await measureAsync {
        for _ in 0..<total {
            let request = try RequestBuilder.makeRequest(for: endpoint)
            _ = try await transport.send(request)
        }
    }
    let routed = try await measureAsync {
        for _ in 0..<total { _ = try await router.request(endpoint) }
    }
    let completion = await measureAsync {
        for _ in 0..<total {
            await withCheckedContinuation { continuation in
                router.request(endpoint) { _ in continuation.resume() }
            }
        }
    }
    row("build request + transport.send (baseline)", format(direct / Double(total) * 1e6) + " µs/request")
    row("Router async request", format(routed / Double(total) * 1e6) + " µs/request")
    row("Router completion request (incl. queue hop)", format(completion / Double(total) * 1e6) + " µs/request")
    row("router's own overhead, async", format((routed - direct) / Double(total) * 1e6) + " µs/request")
    row("  as a share of URLSession's ~400 µs CPU per request", format((routed - direct) / Double(total) * 1e6 / 400 * 100, 1) + " %")
}
