import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Reliability {
    /// What this test process holds right now, read from Linux's `/proc/self`, so that a test can
    /// compare before and after a run and catch leaked sockets or memory.
    ///
    /// Both readings return `nil` where `/proc` does not exist (macOS): the tests that need them
    /// then report why they cannot measure instead of passing without having measured.
    enum ProcessResources {
        /// The number of open file descriptors: sockets, pipes, files, eventfds.
        static func openFileDescriptors() -> Int? {
            // Listing the directory opens one descriptor of its own, which shows up in the listing;
            // it is there in every reading, so comparisons between readings are unaffected.
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else {
                return nil
            }
            return entries.count
        }

        /// The resident set size in bytes (`VmRSS` of `/proc/self/status`).
        static func residentBytes() -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
                return nil
            }
            // The line reads "VmRSS:\t   12345 kB".
            for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard fields.count >= 3, let kibibytes = Int(fields[1]), fields[2] == "kB" else { return nil }
                return kibibytes * 1024
            }
            return nil
        }

        /// Both readings at once, for a before/after comparison.
        struct Snapshot: CustomStringConvertible {
            let fileDescriptors: Int
            let residentBytes: Int

            static func now() -> Snapshot? {
                guard let fileDescriptors = ProcessResources.openFileDescriptors(),
                    let residentBytes = ProcessResources.residentBytes()
                else { return nil }
                return Snapshot(fileDescriptors: fileDescriptors, residentBytes: residentBytes)
            }

            var residentMiB: Double { Double(residentBytes) / 1_048_576 }

            var description: String {
                "\(fileDescriptors) fds, RSS \(String(format: "%.1f", residentMiB)) MiB"
            }
        }
    }

    /// Runs one test of this test binary in a child process of its own.
    ///
    /// Two reasons. A crash inside the library or Foundation (a trap) kills the whole process: in a
    /// child it is a failure of one test, with its message, and the run goes on. And a child's file
    /// descriptors and memory are its workload's alone, not those of whatever other suites the
    /// parent runs in parallel.
    enum ChildProcess {
        /// Set in the child's environment to the name of the workload it should run.
        static let variable = "NETWORKLAYER_RELIABILITY_CHILD"

        /// The workload this process was started for, if it is such a child.
        static var requestedWorkload: String? { ProcessInfo.processInfo.environment[variable] }

        struct Outcome {
            /// The exit status, or the signal that ended the child.
            let status: Int32
            let crashed: Bool
            let timedOut: Bool
            let output: String

            var lines: [String] { output.components(separatedBy: "\n") }

            /// The line Swift or Foundation printed when it trapped ("…: Fatal error: …").
            var fatalError: String? { lines.first { $0.contains("Fatal error") } }
        }

        /// Runs the Swift Testing tests matching `filter` in a child process with `workload` requested,
        /// and returns how it ended and everything it printed.
        static func run(workload: String, filter: String, timeout: TimeInterval) async throws -> Outcome {
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
}
