import Foundation
import TestSupport

/// Runs the built movie-db executable (NETWORKLAYER_MOVIE_DB_BIN) with exactly `environment`:
/// nothing is inherited, so a TMDB_* variable of the developer's shell cannot leak in. Only
/// `LLVM_PROFILE_FILE` passes, which the app never reads: without it a binary built for coverage
/// writes `default.profraw` into the working directory (the repository's, found after a
/// fresh-clone run), and its lines are missing from `Scripts/coverage`.
func runMovieDBBinary(_ arguments: [String], environment: [String: String]) async throws -> CommandRun {
    guard let binary = TestServers.movieDBBinary else { throw CocoaError(.fileNoSuchFile) }
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("movie-db-test-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // Files rather than pipes: a child writing more than a pipe buffer cannot block on us.
    let outURL = directory.appendingPathComponent("stdout")
    let errURL = directory.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let outHandle = try FileHandle(forWritingTo: outURL)
    let errHandle = try FileHandle(forWritingTo: errURL)
    defer {
        try? outHandle.close()
        try? errHandle.close()
    }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.environment = environment.merging(
        ProcessInfo.processInfo.environment.filter { $0.key == "LLVM_PROFILE_FILE" }
    ) { own, _ in own }
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = outHandle
    process.standardError = errHandle

    // Waits without blocking a thread of the cooperative pool, which has only two here.
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        process.terminationHandler = { _ in continuation.resume() }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
    return CommandRun(
        status: process.terminationStatus,
        standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
        standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}
