import Foundation
import NetworkLayer

/// A stubbed endpoint that uploads a multipart form.
struct FormBenchEndpoint: EndPointType {
    let form: MultipartFormData
    var baseURL: URL { URL(string: "https://api.example.invalid/3")! }
    var path: String { "upload" }
    var httpMethod: HTTPMethod { .post }
    var task: HTTPTask { .uploadMultipart(form) }
    var headers: HTTPHeaders? { nil }
    var sampleData: Data { Data("{}".utf8) }
}

/// A 64 MiB multipart form (one file part) sent from the main actor: how long
/// `router.request` holds the caller before it returns, against writing the same form's body
/// to a file directly, in alternating blocks. A ratio near 1 means the caller's thread pays for
/// the whole copy; near 0, that the copy happens elsewhere.
@MainActor
func runMainActorFormBenchmark() async throws {
    print("\n## A 64 MiB multipart form sent from the main actor: the caller's time until router.request returns")
    let rounds = 5
    print("(blocks A B B A, \(rounds) rounds, one send each; A = the form written to a file directly, B = router.request)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nl-bench-form-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let part = folder.appendingPathComponent("part.bin")
    try Data(repeating: 0x5A, count: 64 << 20).write(to: part)
    var form = MultipartFormData()
    try form.append(fileAt: part, name: "file", fileName: "part.bin")
    let endpoint = FormBenchEndpoint(form: form)
    let router = Router<FormBenchEndpoint>(callbackQueue: .main, stubBehavior: { _ in .immediate })

    func writeBlock() throws -> Double {
        let target = folder.appendingPathComponent("body-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: target) }
        let start = DispatchTime.now().uptimeNanoseconds
        try form.writeBody(to: target)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
    func routerBlock() async throws -> Double {
        let (finished, continuation) = AsyncStream<Result<Response, NetworkError>>.makeStream()
        let start = DispatchTime.now().uptimeNanoseconds
        router.request(endpoint) { result in
            continuation.yield(result)
            continuation.finish()
        }
        let held = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        for await result in finished { _ = try result.get() }
        return held
    }
    _ = try await routerBlock()

    var written: [Double] = []
    var held: [Double] = []
    for _ in 0..<rounds {
        for isWrite in [true, false, false, true] {
            if isWrite { written.append(try writeBlock()) } else { held.append(try await routerBlock()) }
        }
    }
    var ratios: [Double] = []
    for round in 0..<rounds {
        ratios.append((held[2 * round] + held[2 * round + 1]) / (written[2 * round] + written[2 * round + 1]))
    }
    row("the form written to a file directly", "\(Spread(values: written)) ms")
    row("router.request returning to the caller", "\(Spread(values: held)) ms")
    row("  caller's time / direct write (median, range)", "\(Spread(values: ratios))")
}
