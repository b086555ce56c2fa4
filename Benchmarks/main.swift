import Foundation

// Release-mode benchmarks that print ratios against baselines measured in the same run.
// Run them with Scripts/bench, which starts the fixture server and sets NETWORKLAYER_FIXTURE_URL.
// `Benchmarks transfers` runs only the transfer benchmark, so that Scripts/bench can repeat it in
// fresh processes (peak RSS depends on what ran before in the same process).
let only = CommandLine.arguments.dropFirst().first
print("# NetworkLayer benchmarks (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
if only == nil {
    try runEncodingBenchmarks()
}
if only == nil || only == "stub" {
    try await runOverheadBenchmark()
}
if let server = ProcessInfo.processInfo.environment["NETWORKLAYER_FIXTURE_URL"].flatMap(URL.init(string:)) {
    if only == nil || only == "router" { try await runRouterBenchmarks(server: server) }
    if only == nil || only == "transfers" { try await runTransferBenchmarks(server: server) }
} else {
    print("\n(NETWORKLAYER_FIXTURE_URL not set: network benchmarks skipped; use Scripts/bench)")
}
if let peak = peakRSSMiB() {
    row("\npeak RSS of the whole benchmark process", format(peak, 1) + " MiB")
}
