import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Runs one test of this test binary in a child process of its own.
///
/// Two reasons. A crash inside the library or Foundation (a trap) kills the whole process: in a
/// child it is a failure of one test, with its message, and the run goes on. And a child's file
/// descriptors and memory are its workload's alone, not those of whatever other suites the
/// parent runs in parallel.
public enum ChildProcess {
    /// Set in the child's environment to the name of the workload it should run.
    public static let variable = "NETWORKLAYER_CHILD_WORKLOAD"

    /// The workload this process was started for, if it is such a child.
    public static var requestedWorkload: String? { ProcessInfo.processInfo.environment[variable] }

    public struct Outcome {
        /// The exit status, or the signal that ended the child.
        public let status: Int32
        public let crashed: Bool
        public let timedOut: Bool
        public let output: String

        public var lines: [String] { output.components(separatedBy: "\n") }

        /// The line Swift or Foundation printed when it trapped ("…: Fatal error: …"), or the
        /// one a sanitizer printed when it stopped the child.
        public var fatalError: String? { lines.first { $0.contains("Fatal error") || $0.contains("Sanitizer") } }
    }

    /// Runs the Swift Testing tests matching `filter` in a child process with `workload` requested,
    /// and returns how it ended and everything it printed.
    ///
    /// - Parameter environment: Variables set (or, empty, cleared) in the child's environment
    ///   only, for what must not reach the tests running beside it (a proxy).
    public static func run(
        workload: String, filter: String, timeout: TimeInterval, environment added: [String: String] = [:]
    ) async throws -> Outcome {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("networklayer-child-\(UUID().uuidString).log")
        // A file, not a pipe: a backtrace can exceed a pipe's buffer and block the child.
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }

        var environment = ProcessInfo.processInfo.environment
        environment[variable] = workload
        environment.merge(added) { _, new in new }
        let child = try SpawnedChild.start(
            executable: executable, arguments: ["--testing-library", "swift-testing", "--filter", filter],
            environment: environment, output: output)

        let deadline = Date().addingTimeInterval(timeout)
        var ending = child.ending()
        while ending == nil && Date() < deadline {
            try? await Task.sleep(nanoseconds: 50_000_000)
            ending = child.ending()
        }
        let timedOut = ending == nil
        let ended = ending ?? child.kill()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Outcome(status: ended.status, crashed: ended.bySignal, timedOut: timedOut, output: text)
    }
}

extension ChildProcess {
    /// Runs the test `filter` in a child process for `workload` and records an issue when it
    /// crashed, hung, failed, or printed no line starting with `proof` (the sign that the
    /// workload ran to its end rather than being skipped). Prints the child's lines that start
    /// with the part of `proof` before its first space, its report.
    public static func expectCleanRun(
        workload: String, filter: String, timeout: TimeInterval, proof: String, environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let child = try await run(workload: workload, filter: filter, timeout: timeout, environment: environment)
        let lines = child.lines.map {
            $0.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        }
        let tag = proof.split(separator: " ").first.map(String.init) ?? proof
        for line in lines where line.hasPrefix(tag) { print(line) }
        let report = lines.filter { $0.hasPrefix(proof) }
        if child.timedOut {
            Issue.record("the \(workload) workload did not finish within \(timeout) s: a hang", sourceLocation: sourceLocation)
            return
        }
        if child.crashed {
            Issue.record(
                Comment(rawValue: "the process crashed (signal \(child.status)) during \(workload): \(child.fatalError ?? "no message")"),
                sourceLocation: sourceLocation)
            return
        }
        // A sanitizer's report ends the child with a failure status; its lines say why.
        let issues = lines.filter { $0.contains("recorded an issue") || $0.hasPrefix("↳") || $0.contains("Sanitizer") }
        #expect(
            child.status == 0, "the workload failed:\n\(issues.prefix(20).joined(separator: "\n"))\n\(Self.shown(child.output))",
            sourceLocation: sourceLocation)
        #expect(!report.isEmpty, "no \(proof) line from the child:\n\(Self.shown(child.output))", sourceLocation: sourceLocation)
    }

    /// What of a child's output a failure shows: a sanitizer's report whole, from its first line
    /// (its two stacks are what says where the fault is: the last 3,000 characters cut a
    /// ThreadSanitizer report to its summary in the fresh-clone run at 5a69243), else the end.
    static func shown(_ output: String) -> String {
        for marker in ["WARNING: ThreadSanitizer", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer"] {
            if let start = output.range(of: marker) { return String(output[start.lowerBound...].prefix(20_000)) }
        }
        return String(output.suffix(3_000))
    }
}
