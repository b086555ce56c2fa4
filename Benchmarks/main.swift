import Foundation

// Release-mode benchmarks that print ratios against baselines measured in the same run.
// Run them with Scripts/bench, which starts the fixture server and sets NETWORKLAYER_FIXTURE_URL.
// `Benchmarks NAME` runs one group only (cache, cache-hit, cache-variants, stub, main-actor, form, streaming, router, curl,
// transfers, stream-memory, soak SENDER [REQUESTS], load curl|urlsession|stub|cache-hit [REQUESTS]), so that Scripts/bench can
// repeat it in fresh processes (peak RSS depends on what ran before in the same process).
// `Benchmarks trace-path [plain|stub|cache-hit]` sends one request for Scripts/trace-path, which
// runs it in a debug build under gdb.
let only = CommandLine.arguments.dropFirst().first
func runs(_ name: String) -> Bool { only == nil || only == name }

print("# NetworkLayer benchmarks (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
if only == nil {
    try runEncodingBenchmarks()
}
if runs("cache") {
    try runCacheBenchmarks()
}
if runs("cache") || runs("cache-variants") {
    try runCacheVariantBenchmark()
}
if runs("stub") {
    try await runOverheadBenchmark()
}
if runs("stub") || runs("main-actor") {
    try await runMainActorOverheadBenchmark()
}
if runs("main-actor") || runs("form") {
    try await runMainActorFormBenchmark()
}
if runs("streaming") {
    try await runStreamingBenchmarks()
}
if let server = ProcessInfo.processInfo.environment["NETWORKLAYER_FIXTURE_URL"].flatMap(URL.init(string:)) {
    if runs("router") { try await runRouterBenchmarks(server: server) }
    if runs("cache") || runs("cache-hit") { try await runRouterCacheBenchmark(server: server) }
    if runs("cache-hit") || runs("main-actor") { try await runMainActorCacheHitBenchmark(server: server) }
    if runs("curl") { try await runCurlBenchmarks(server: server) }
    if runs("transfers") { try await runTransferBenchmarks(server: server) }
    if only == "load" {
        // The router over one transport alone, 16 in flight, for a profiler (perf record) to read.
        let transport = CommandLine.arguments.dropFirst(2).first ?? "curl"
        let requests = CommandLine.arguments.dropFirst(3).first.flatMap(Int.init) ?? 100_000
        try await runLoad(server: server, transport: transport, requests: requests)
    }
    if only == "trace-path" { try await runTracedRequest(CommandLine.arguments.dropFirst(2).first ?? "plain", server: server) }
    if only == "soak" {
        let sender = CommandLine.arguments.dropFirst(2).first ?? "urlsession"
        let requests = CommandLine.arguments.dropFirst(3).first.flatMap(Int.init) ?? 200_000
        try await runSoakBenchmark(server: server, sender: sender, requests: requests)
    }
} else {
    print("\n(NETWORKLAYER_FIXTURE_URL not set: network benchmarks skipped; use Scripts/bench)")
}
if only == "stream-memory", let server = ProcessInfo.processInfo.environment["NETWORKLAYER_STREAM_URL"].flatMap(URL.init(string:)) {
    try await runStreamMemoryBenchmark(server: server, transport: CommandLine.arguments.dropFirst(2).first ?? "curl")
}
if let peak = peakRSSMiB() {
    row("\npeak RSS of the whole benchmark process", format(peak, 1) + " MiB")
}
