import Foundation

/// Where ``MovieDBCommand`` writes: two sinks that receive text, each call one or more whole
/// lines ending in `"\n"`.
///
/// Injected so that tests run the command in-process and read what a user would see.
public struct CommandOutput: Sendable {
    /// Receives results: tables, details, JSON, help.
    public var standardOutput: @Sendable (String) -> Void
    /// Receives diagnostics: errors, usage hints, the offline notice.
    public var standardError: @Sendable (String) -> Void

    /// Creates an output from two sinks.
    public init(standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void) {
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// The process's stdout and stderr, written unbuffered so that the two interleave in the
    /// order they were written and nothing is lost when the process exits.
    public static let standardStreams = CommandOutput(
        // Throwing writes: a failed write (a closed descriptor, a full disk) must not trap.
        standardOutput: { try? FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) },
        standardError: { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) })
}
