import Foundation
import MallocInterposerSwift
import NetworkLayer

/// Allocation calls (malloc, calloc, realloc, posix_memalign…, on every thread of the process)
/// and bytes requested per request, over `requests` requests with at most `width` in flight.
/// Counted by ordo-one/malloc-interposer, which counts only when its library is preloaded
/// (`LD_PRELOAD=…/libMallocInterposerSwift.so`, as Scripts/bench peers runs this mode).
func allocationsPerRequest(
    requests: Int, width: Int, _ send: @escaping @Sendable () async throws -> Void
) async throws -> (calls: Double, bytes: Double) {
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    do {
        try await inFlight(requests, width: width, send)
    } catch {
        MallocInterposerSwift.unhook()
        throw error
    }
    MallocInterposerSwift.unhook()
    let statistics = MallocInterposerSwift.getStatistics()
    return (Double(statistics.mallocCount) / Double(requests), Double(statistics.mallocBytesCount) / Double(requests))
}

/// Whether malloc goes through the interposer: linking its library is not enough on Linux, it
/// has to be preloaded. Probed with a real request, whose allocations the optimizer cannot
/// remove or move out of the counted region as it does a bare malloc and free.
func interposerIsCounting(_ send: @escaping @Sendable () async throws -> Void) async throws -> Bool {
    try await allocationsPerRequest(requests: 1, width: 1, send).calls > 0
}

/// Prints the allocations per request of each client, one at a time and 16 in flight: counts,
/// unlike times, do not move with the other processes on the machine: three repeats agree within
/// about 2 %, and the range shows it.
func runAllocationCounts(_ senders: Senders) async throws {
    print("\n## Allocations per request (malloc-interposer: every thread of this process, N requests, 3 repeats)")
    guard try await interposerIsCounting(senders.rawCompletion) else {
        print("(not counted: run with LD_PRELOAD=<bin path>/libMallocInterposerSwift.so, as Scripts/bench peers does)")
        return
    }
    let stubbed = StubbedSenders()
    let clients: [(String, @Sendable () async throws -> Void)] = [
        ("A  raw URLSession dataTask + continuation", senders.rawCompletion),
        ("A' raw URLSession data(for:)", senders.rawData),
        ("B  Router + URLSessionTransport", senders.routerURLSession),
        ("C  AsyncHTTPClient", senders.asyncHTTPClient),
        ("D  Router + CurlTransport", senders.routerCurl),
        // The router with no transport: an immediate stub decoded to a small model, beside the
        // decode alone, so that the router's own share of a request can be told apart.
        ("E  Router, immediate stub, decoded", stubbed.request),
        ("E' the same decode alone", stubbed.decode),
        // What inFlight itself allocates (a child task per request when 16 are in flight), so
        // that it can be told apart from the clients'.
        ("   the harness alone (no request)", { @Sendable in }),
    ]
    for (label, width, requests) in [("1 in flight", 1, 2_000), ("16 in flight", 16, 4_000)] {
        print("\n### \(label), \(requests) requests per repeat: allocations per request, median (range); bytes")
        for (name, send) in clients {
            // Warm: connections open, lazy state made, so that only the steady state is counted.
            try await inFlight(300, width: width, send)
            var calls: [Double] = []
            var bytes: [Double] = []
            for _ in 0..<3 {
                let counted = try await allocationsPerRequest(requests: requests, width: width, send)
                calls.append(counted.calls)
                bytes.append(counted.bytes)
            }
            let spread = Spread(values: calls)
            row(
                name,
                "\(format(spread.median, 1)) (\(format(spread.min, 1))–\(format(spread.max, 1))); \(Int(Spread(values: bytes).median)) B")
        }
    }
}

/// A stubbed request decoded to a small model, and the same decode alone.
private struct StubbedSenders {
    struct Movie: EndPointType {
        static let body = Data(#"{"id":550,"title":"Fight Club","popularity":61.4,"adult":false}"#.utf8)
        var baseURL: URL { URL(string: "https://api.example.invalid/3")! }
        var path: String { "movie/550" }
        var httpMethod: HTTPMethod { .get }
        var task: HTTPTask { .request }
        var headers: HTTPHeaders? { nil }
        var sampleData: Data { Self.body }
    }

    struct SmallModel: Decodable, Sendable {
        let id: Int
        let title: String
        let popularity: Double
        let adult: Bool
    }

    let request: @Sendable () async throws -> Void
    let decode: @Sendable () async throws -> Void

    init() {
        let router = Router<Movie>(callbackQueue: .global(), stubBehavior: { _ in .immediate })
        let decoder = JSONDecoder()
        request = { _ = try await router.request(Movie(), as: SmallModel.self, decoder: decoder) }
        decode = { _ = try decoder.decode(SmallModel.self, from: Movie.body) }
    }
}
