import Foundation
import MovieDB
import NetworkLayer

/// What a run of movie-db showed: exit status, stdout and stderr.
struct CommandRun {
    let status: Int32
    let standardOutput: String
    let standardError: String

    /// The stdout lines, without the empty string after the last newline.
    var outputLines: [String] { lines(standardOutput) }
    /// The stderr lines, without the empty string after the last newline.
    var errorLines: [String] { lines(standardError) }

    private func lines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

/// Collects what a command writes, from any thread.
final class CapturedOutput: @unchecked Sendable {
    private var out = ""
    private var err = ""
    private let lock = NSLock()

    var commandOutput: CommandOutput {
        CommandOutput(
            standardOutput: { text in self.lock.withLock { self.out += text } },
            standardError: { text in self.lock.withLock { self.err += text } })
    }

    func run(status: Int32) -> CommandRun {
        lock.withLock { CommandRun(status: status, standardOutput: out, standardError: err) }
    }
}

/// Runs MovieDBCommand in-process. The environment is exactly `environment`: with no
/// credential in it the command is offline and sends nothing.
func runCommand(
    _ arguments: [String], environment: [String: String] = [:], transport: (any HTTPTransport)? = nil
) async -> CommandRun {
    let captured = CapturedOutput()
    let command = MovieDBCommand(
        arguments: arguments, environment: environment, output: captured.commandOutput, transport: transport)
    let status = await command.run()
    return captured.run(status: status)
}
