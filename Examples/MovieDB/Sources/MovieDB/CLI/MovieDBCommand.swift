import Foundation
import NetworkLayer

/// The `movie-db` command line tool, as a value that tests run in-process.
///
/// It reads the arguments and the environment it is given (never the process's own), writes
/// only to its ``CommandOutput``, and returns the exit status instead of exiting, so that a test
/// sees exactly what a user would.
///
/// ```swift
/// let command = MovieDBCommand(arguments: ["popular", "--page", "2"], environment: ["TMDB_ACCESS_TOKEN": token])
/// let status = await command.run()
/// ```
///
/// Exit statuses: 0 success, 1 the request failed (one line on stderr with the server's message),
/// 2 the command line or the environment is wrong (a message and a hint on stderr).
public struct MovieDBCommand: Sendable {
    /// The exit statuses ``run()`` returns.
    public enum ExitStatus {
        /// The result was printed.
        public static let success: Int32 = 0
        /// The request failed; the reason is on stderr.
        public static let failure: Int32 = 1
        /// The command line or environment is wrong; nothing was sent.
        public static let usage: Int32 = 2
    }

    /// The arguments after the program name, e.g. `["search", "alien", "--json"]`.
    public let arguments: [String]
    /// The environment variables to read the configuration from (see ``TMDBConfiguration``).
    public let environment: [String: String]
    /// Where results and diagnostics go.
    public let output: CommandOutput
    private let transport: (any HTTPTransport)?

    /// Creates a command.
    ///
    /// - Parameters:
    ///   - arguments: The arguments without the program name (`CommandLine.arguments.dropFirst()`).
    ///   - environment: Variables such as `TMDB_ACCESS_TOKEN`; only these are read.
    ///   - output: Where to write; the process's stdout and stderr by default.
    ///   - transport: Sends requests; a new `URLSessionTransport` by default. Tests pass a
    ///     `StubTransport` to see the command handle a server's answer without a server.
    public init(
        arguments: [String], environment: [String: String], output: CommandOutput = .standardStreams,
        transport: (any HTTPTransport)? = nil
    ) {
        self.arguments = arguments
        self.environment = environment
        self.output = output
        self.transport = transport
    }

    /// Parses the arguments, sends the request and prints the result.
    ///
    /// - Returns: The exit status; see ``ExitStatus``.
    public func run() async -> Int32 {
        guard !arguments.isEmpty else {
            output.standardError(Self.usage)
            return ExitStatus.usage
        }
        let invocation: Invocation
        do {
            invocation = try ArgumentParser.parse(arguments)
        } catch {
            output.standardError("movie-db: \(error.message)\n\(Self.usageHint)\n")
            return ExitStatus.usage
        }
        if invocation.action == .help {
            output.standardOutput(Self.usage)
            return ExitStatus.success
        }

        let configuration: TMDBConfiguration
        do {
            configuration = try TMDBConfiguration(environmentVariables: environment)
        } catch {
            output.standardError("movie-db: \(error.localizedDescription)\n")
            return ExitStatus.usage
        }
        if configuration.isOffline {
            output.standardError(Self.offlineNotice + "\n")
        }

        let service = MovieService(configuration: configuration, transport: transport ?? URLSessionTransport())
        do {
            output.standardOutput(try await perform(invocation, with: service))
            return ExitStatus.success
        } catch {
            // Exactly one line, so scripts can read it: a decoding error quotes the body, which
            // may hold newlines.
            output.standardError("movie-db: \(error.localizedDescription.printable)\n")
            return ExitStatus.failure
        }
    }

    /// Sends the request of `invocation` and renders its result as text or JSON.
    private func perform(_ invocation: Invocation, with service: MovieService) async throws -> String {
        switch invocation.action {
        case .help:
            return Self.usage
        case .popular(let page):
            return try render(try await service.popular(page: page), json: invocation.json, HumanReadable.movies)
        case .nowPlaying(let page):
            return try render(try await service.newMovies(page: page), json: invocation.json, HumanReadable.movies)
        case .recommended(let id, let page):
            return try render(try await service.recommended(id: id, page: page), json: invocation.json, HumanReadable.movies)
        case .videos(let id):
            return try render(try await service.videos(id: id), json: invocation.json, HumanReadable.videos)
        case .movie(let id):
            return try render(try await service.details(id: id), json: invocation.json, HumanReadable.details)
        case .search(let query, let page):
            return try render(try await service.search(query: query, page: page), json: invocation.json, HumanReadable.movies)
        }
    }

    /// The value as TMDB-shaped JSON (sorted keys, so output is stable), or as human text.
    private func render<Value: Encodable>(_ value: Value, json: Bool, _ human: (Value) -> String) throws -> String {
        guard json else { return human(value) }
        return String(decoding: try TMDBCoding.makeEncoder().encode(value), as: UTF8.self) + "\n"
    }
}
