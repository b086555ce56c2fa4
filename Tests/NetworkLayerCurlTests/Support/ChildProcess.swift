import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs one test of this test binary in a child process of its own (the pattern of
/// NetworkLayerTests' reliability suite): a crash fails one test with its message instead of
/// ending the run, and the child's descriptors and memory are its workload's alone.
enum ChildProcess {
    /// Set in the child's environment to the name of the workload it should run.
    static let variable = "NETWORKLAYER_CURL_CHILD"

    /// The workload this process was started for, if it is such a child.
    static var requestedWorkload: String? { ProcessInfo.processInfo.environment[variable] }

    struct Outcome {
        let status: Int32
        let crashed: Bool
        let timedOut: Bool
        let output: String

        var lines: [String] { output.components(separatedBy: "\n") }
        /// The line Swift or a sanitizer printed when the child died.
        var fatalError: String? { lines.first { $0.contains("Fatal error") || $0.contains("Sanitizer") } }
    }

    /// Runs the tests matching `filter` with `workload` requested, and returns how the child ended.
    static func run(workload: String, filter: String, timeout: TimeInterval) async throws -> Outcome {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("networklayer-curl-child-\(UUID().uuidString).log")
        // A file, not a pipe: a backtrace can exceed a pipe's buffer and block the child.
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = workload
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        try process.run()

        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline {
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        let timedOut = process.isRunning
        if timedOut {
            // Our own child, by its id: SIGKILL, since a hung child may ignore SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Outcome(
            status: process.terminationStatus, crashed: process.terminationReason == .uncaughtSignal,
            timedOut: timedOut, output: text)
    }
}
