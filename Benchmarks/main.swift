import Foundation

// Release-mode benchmarks that print ratios against baselines measured in the same run.
// Run them with Scripts/bench, which starts the fixture server and sets NETWORKLAYER_FIXTURE_URL.
print("# NetworkLayer benchmarks (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
try runEncodingBenchmarks()
try runCacheBenchmarks()
try await runOverheadBenchmark()
if let server = ProcessInfo.processInfo.environment["NETWORKLAYER_FIXTURE_URL"].flatMap(URL.init(string:)) {
    try await runRouterBenchmarks(server: server)
    try await runTransferBenchmarks(server: server)
} else {
    print("\n(NETWORKLAYER_FIXTURE_URL not set: network benchmarks skipped; use Scripts/bench)")
}
if let peak = peakRSSMiB() {
    row("\npeak RSS of the whole benchmark process", format(peak, 1) + " MiB")
}
