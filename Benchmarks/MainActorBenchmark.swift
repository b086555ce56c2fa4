import Foundation
import NetworkLayer

/// Where apps call from: the same stubbed request and decode as `runOverheadBenchmark`, with
/// the loop itself on the main actor, as a view model's or a command-line tool's code is.
/// Each block is a loop on the main actor, so what is measured is what the caller's actor pays
/// per request: the router's work and every hop off the actor and back.
@MainActor
func runMainActorOverheadBenchmark() async throws {
    print("\n## A stubbed request decoded to a small model, called from the main actor")
    let perBlock = 5_000
    let rounds = 6
    print("(blocks A B B A, \(rounds) rounds of \(perBlock), one at a time, every loop on the main actor)")
    let router = Router<StubbedEndpoint>(callbackQueue: .main, stubBehavior: { _ in .immediate })
    let decoder = JSONDecoder()

    func decodeBlock() throws {
        for _ in 0..<perBlock { _ = try decoder.decode(SmallModel.self, from: StubbedEndpoint.body) }
    }
    func routerBlock() async throws {
        for _ in 0..<perBlock { _ = try await router.request(StubbedEndpoint(), as: SmallModel.self, decoder: decoder) }
    }
    try await routerBlock()

    var decodeMicroseconds: [Double] = []
    var routerMicroseconds: [Double] = []
    var usage = (decode: (cpu: 0.0, switches: 0), router: (cpu: 0.0, switches: 0))
    for _ in 0..<rounds {
        for isDecode in [true, false, false, true] {
            let before = ProcessUsage.now()
            let start = DispatchTime.now().uptimeNanoseconds
            if isDecode { try decodeBlock() } else { try await routerBlock() }
            let perRequest = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(perBlock)
            let after = ProcessUsage.now()
            if isDecode {
                decodeMicroseconds.append(perRequest)
                usage.decode.cpu += after.cpuSeconds - before.cpuSeconds
                usage.decode.switches += after.contextSwitches - before.contextSwitches
            } else {
                routerMicroseconds.append(perRequest)
                usage.router.cpu += after.cpuSeconds - before.cpuSeconds
                usage.router.switches += after.contextSwitches - before.contextSwitches
            }
        }
    }
    // Per round, the two router blocks against the two decode blocks beside them.
    var beyond: [Double] = []
    for round in 0..<rounds {
        let decode = (decodeMicroseconds[2 * round] + decodeMicroseconds[2 * round + 1]) / 2
        let routed = (routerMicroseconds[2 * round] + routerMicroseconds[2 * round + 1]) / 2
        beyond.append(routed - decode)
    }
    let requests = Double(perBlock * 2 * rounds)
    row("decode alone", format(Spread(values: decodeMicroseconds).median, 2) + " µs/request")
    row("stubbed router request + decode", format(Spread(values: routerMicroseconds).median, 2) + " µs/request")
    row("  beyond the decode (median, range)", "\(Spread(values: beyond)) µs")
    row(
        "  CPU per request: decode / router",
        format(usage.decode.cpu * 1e6 / requests, 2) + " / " + format(usage.router.cpu * 1e6 / requests, 2) + " µs")
    row(
        "  context switches per request: decode / router",
        format(Double(usage.decode.switches) / requests, 3) + " / " + format(Double(usage.router.switches) / requests, 3))
}

/// A fresh cache hit through the router, called from the main actor and from a task with no
/// actor, in alternating blocks: what a view model pays for a response it already has.
@MainActor
func runMainActorCacheHitBenchmark(server: URL) async throws {
    print("\n## A fresh cache hit through the router, from the main actor and from a background task")
    let perBlock = 2_000
    let rounds = 6
    print("(blocks A B B A, \(rounds) rounds of \(perBlock); A = background task, B = main actor)")
    let endpoint = CachedBenchEndpoint(baseURL: server, key: "main-actor-\(UUID().uuidString)")
    let router = Router<CachedBenchEndpoint>(callbackQueue: .main, cache: .inMemory())
    _ = try await router.request(endpoint)
    guard try await router.request(endpoint).cacheOutcome == .hit else {
        throw BenchmarkError.unexpected("the router did not answer from its cache")
    }
    func mainActorBlock() async throws {
        for _ in 0..<perBlock { _ = try await router.request(endpoint) }
    }
    func backgroundBlock() async throws {
        try await Task.detached {
            for _ in 0..<perBlock { _ = try await router.request(endpoint) }
        }.value
    }
    try await mainActorBlock()
    var background: [Double] = []
    var mainActor: [Double] = []
    var switches = (background: 0, mainActor: 0)
    for _ in 0..<rounds {
        for isBackground in [true, false, false, true] {
            let before = ProcessUsage.now()
            let start = DispatchTime.now().uptimeNanoseconds
            if isBackground { try await backgroundBlock() } else { try await mainActorBlock() }
            let perRequest = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(perBlock)
            let after = ProcessUsage.now()
            if isBackground {
                background.append(perRequest)
                switches.background += after.contextSwitches - before.contextSwitches
            } else {
                mainActor.append(perRequest)
                switches.mainActor += after.contextSwitches - before.contextSwitches
            }
        }
    }
    let requests = Double(perBlock * 2 * rounds)
    row("cache hit from a background task (median, range)", "\(Spread(values: background)) µs")
    row("cache hit from the main actor (median, range)", "\(Spread(values: mainActor)) µs")
    row(
        "  context switches per request: background / main actor",
        format(Double(switches.background) / requests, 3) + " / " + format(Double(switches.mainActor) / requests, 3))
}
